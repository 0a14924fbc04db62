"""GNU Backgammon file formats: ``.mat`` match files (:mod:`.matfile`, read and write) and
``.sgf`` (:mod:`.sgf`, write), which carries the rules into its analysis."""
