"""Tournaments from sign-up to champion: create, join, start, a match per pairing, organiser
tools, status and bracket. Never imports the chouette."""
