"""Finding a game (issue 44): open challenges anyone may accept (:mod:`.open`)."""
