"""The rules in force (/rules) and rule options typed as key=value words."""
