"""The move builder (issue 31): a play entered one checker at a time, picked from menus of
the steps that lead to a legal play (or from the whole plays when they are few), for
players who tap rather than type.  The steps come from :mod:`engine.steps`; what is
entered so far is the turn's draft, the same one ``/move`` writes.  Never imports
chouette or tournaments."""
