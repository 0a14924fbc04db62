"""The clocks of matches played on a time control (issue 44): rows and SQL."""
