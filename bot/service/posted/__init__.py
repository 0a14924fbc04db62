"""Messages the adapter posted whose ids are kept, so a later action can retire their
buttons."""
