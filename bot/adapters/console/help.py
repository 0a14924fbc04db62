"""The console's ``/help`` text."""

HELP = """Commands (prefix with "name:" to act as that user, e.g. "bob: /accept"; without
it /roll, /move, /take ... are the waiting player's, other commands the last actor's):
  /challenge @user [length=N | stake=N] [variant=NAME] [option=value ...]
  /accept  /decline  /cancel
  /roll  /double  /take  /drop  /beaver
  /move MOVES          e.g. /move 13/7 8/7, /move 8/5(2) 6/5(2), /move bar/22 6/off
  /undo  /confirm  /choose OPTION
                       /undo takes back this turn's moves, or your finished play until
                       the opponent rolls: after a play his throw always waits for him
  /steps               the move builder: the numbered steps for each die (and the whole
                       plays when few); /step N takes one, /undo-step, /start-over
  /resign [single|gammon|backgammon]   /answer accept|reject
  /board  /claim  /forfeit [confirm]
  /stop                ends a money session between games    /rematch  plays again
  /leaderboard [rating|money|wins|pr|puzzles] [page]   /stats [@user]   /verify [game]
  /export [mat|sgf] [game=N]   writes the match as a .mat file, or .sgf (for analysis in
                       GNU Backgammon: it carries the rules); game=N: a chouette table's game
  /history [game]      the moves, dice and cube actions of the match (or of game N)
  /hint  /analyze [game] [match] [depth=expert]   the AI's advice for your decision;
                       analysis of a finished game (default the last) or the whole match
  /replay [game]       the game as an animated GIF in the boards folder
  /puzzle [N]  /puzzle answer [N] ANSWER   a puzzle from the server's own blunders;
                       your answer (a play, or double / no double / take / pass)
  Play the AI:  alice: /challenge @gnubot length=3 level=strong   (beginner ... expert)
  /chouette open [stake=N] [refusal=lose-to-captain|forfeit-to-partners]
            [captain_refusal=final-word|partner-takes-over] [cap=N] [box_partners=N]
            [variant=NAME] [option=value ...]
  /chouette join | leave [confirm] | start | suggest TEXT | status
  /tournament join|leave|status|list|bracket|claim   (type /tournament for the options)
  /tournament-admin create|start|result|confirm|remove|pause|resume|cancel   (organisers)
  /settings [show [KEY]] | set KEY VALUE | reset KEY   this server's own defaults (variant,
                       rules.<option>, threads, game_channels, ai, reminder_minutes ...; in
                       the console everyone may change them; channels as #name)
  /rules  /help  /channel NAME  /quit
  /dm NAME  /group NAME  play as in a DM, or a group DM, named NAME: a conversation
                       without a server (as with the app installed to a user's account):
                       matches, money play, the bot, /hint, /history ... work there;
                       chouette, tournaments, the leaderboard, /claim and /settings are
                       refused with the reason; /channel NAME goes back to the server
  /demo                plays on with the first legal play each turn: to the end of the
                       match, or of the current game in money play and chouettes"""

