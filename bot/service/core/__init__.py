"""How an action commits and what it answers, for every feature: the values a call takes
(Actor, Place, Expect), the action runner (lock, load, version check, work, commit), the
typed match state, the reply and the board it shows. Imports no feature."""
