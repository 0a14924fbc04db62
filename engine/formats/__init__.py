"""GNU Backgammon file formats: ``.mat`` match files (read and write)."""
