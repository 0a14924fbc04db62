"""The web board (issue 45): the Discord Activity and ``python -m bot web``.

A page (``web/``, built to ``web/dist``) draws the board as SVG and acts through a
websocket; this adapter serves it from the bot's own aiohttp and turns each message into
a call of the service's action table (:meth:`bot.service.game.GameService.act`), as the
console and the Discord cogs do.  Nothing here decides a rule: the legal destinations are
the move builder's steps, the buttons are the service's buttons for this user.

* :mod:`.state`: a board reply as the JSON the page draws;
* :mod:`.hub`: who watches which place; every committed action there re-reads the state
  and sends it to each of them (the service's action observer tells it);
* :mod:`.auth`: who a page is: Discord's OAuth2 code exchange and its activity instance,
  or the local mock identity;
* :mod:`.server`: the routes, the websocket, the headers (Content-Security-Policy, Origin);
* :mod:`.run`: ``python -m bot web``.
"""
