"""Our own networks for the book variants, trained by self-play (issue 46).

bgsage knows standard backgammon only.  Acey-Deucey, Russian and French
backgammon are played, hinted and graded by small networks of our own,
trained by temporal-difference learning from self-play as TD-Gammon was:

* :mod:`bot.ai.tdnet.encode` turns a position into the network's inputs, from
  the side of the player on roll, in the variant's own geometry;
* :mod:`bot.ai.tdnet.net` is the network (one hidden layer, five sigmoid
  outputs: win, gammon, backgammon, gammon lost, backgammon lost), numpy only;
* :mod:`bot.ai.tdnet.turns` plays a throw stage by stage with a network;
* :mod:`bot.ai.tdnet.train` trains a network from scratch with a fixed seed
  (``python -m bot.ai.tdnet.train``);
* :mod:`bot.ai.tdnet.family` names which network serves which variant and
  loads the shipped weights (``bot/ai/tdnet/weights/*.npz``).
"""
