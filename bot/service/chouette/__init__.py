"""The chouette: one player in the box against a team (the /chouette commands and the
seating of a game in progress). Never imports tournaments."""
