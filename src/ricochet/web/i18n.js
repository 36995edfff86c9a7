// The shell's user-visible strings, English and French, and the translation functions.
// French uses the words of the French rule sheet (seed 004): cible, annonce, sablier,
// jeton, robot actif, Vortex cosmique, démontrer / démonstration, mouvements.
//
// Each game brings its own strings (its module's `strings`, added when the game is
// loaded: games/index.js), as does the bidding panel (bidding-strings.js): addStrings.
// t(key, params) fills {name} placeholders, and plural forms by the browser's Intl.PluralRules:
// "{n, plural, one {# move} other {# moves}}" (the categories of CLDR: zero, one, two, few, many,
// other; "=2 {…}" for an exact number; # is the number) — never a hand-made "s".  apply(root) translates elements
// carrying data-i18n (textContent), data-i18n-label (aria-label) and
// data-i18n-placeholder.  Never returns HTML: callers put it in textContent.

export const STRINGS = {
  en: {
    "app.title": "Ricochet",
    "app.tagline": "Four robot games, with friends or against bots: find the shortest route, bid or race to announce, demonstrate — or program your robots in secret.",
    "lang.label": "Language",
    "nav.lobby": "Lobby",
    "lobby.nickname": "Your nickname",
    "lobby.nickname.placeholder": "e.g. Alex",
    "lobby.quick": "Play against bots",
    "lobby.quick.hint": "One click: a room with two bots starts right away.",
    "lobby.create": "Create a room",
    "lobby.rooms": "Public rooms",
    "lobby.rooms.empty": "No public room yet: create one!",
    "lobby.refresh": "Refresh",
    "lobby.join": "Join",
    "lobby.watch": "Watch",
    "lobby.replay": "Replay",
    "lobby.room.players": "{n, plural, one {# player} other {# players}}",
    "lobby.room.bots": "{n, plural, one {# bot} other {# bots}}",
    "lobby.room.who": "with {names}",
    "lobby.room.spectators": "{n} watching",
    "lobby.need_name": "Choose a nickname first.",
    "lobby.how": "How to play",
    "opt.name": "Room name",
    "opt.private": "Private room (by link only)",
    "opt.spectator_chat": "Spectators may chat",
    "opt.bots": "Bots",
    "opt.bot_level": "Bot level",
    "opt.more": "Rule options",
    "room.create": "Create",
    "room.join": "Take a seat",
    "room.leave": "Leave",
    "room.share": "Copy link",
    "room.copied": "Link copied.",
    "room.players": "Players",
    "room.spectators": "Spectators",
    "room.spectators.none": "Nobody is watching.",
    "room.you": "you",
    "room.host": "host",
    "room.bot": "bot",
    "room.away": "away",
    "room.chips": "{n, plural, one {# chip} other {# chips}}",
    "room.score": "Score",
    "room.target_score": "First to {n, plural, one {# chip} other {# chips}} wins",
    "room.target_all": "Play until all chips are won",
    "room.host_controls": "Host controls",
    "room.lobby.host": "Invite friends with the link or add bots, then start the game.",
    "room.start": "Start the game",
    "room.restart": "New game",
    "room.end": "End the game",
    "room.add_bot": "Add a bot",
    "room.remove": "Remove",
    "room.bot_level.beginner": "Beginner",
    "room.bot_level.intermediate": "Intermediate",
    "room.bot_level.expert": "Expert",
    "room.bot_level.perfect": "Perfect",
    "room.chat": "Chat",
    "room.watching": "watching",
    "room.chat.placeholder": "Say something…",
    "room.chat.send": "Send",
    "room.connecting": "Connecting…",
    "room.reconnecting": "Connection lost, reconnecting…",
    "room.connected": "Connected",
    "room.not_found": "This room does not exist.",
    "phase.lobby": "Waiting for the host to start",
    "phase.over": "Game over",
    "round.number": "Round {n}",
    "bid.moves": "{n, plural, one {# move} other {# moves}}",
    "clock.label": "Sand clock",
    "clock.next": "Next chip in {s}",
    "demo.give_up": "Give up",
    "demo.time_left": "{s} to demonstrate",
    "demo.select": "Select the {robot} robot",
    "demo.move": "Move {dir}",
    "demo.selected": "{robot} robot selected",
    "dir.N": "up",
    "dir.E": "right",
    "dir.S": "down",
    "dir.W": "left",
    "over.winners": "{count, plural, one {Winner} other {Winners}}: {names}",
    "over.reason.target_score": "A player reached the winning score.",
    "over.reason.all_chips": "All chips have been played.",
    "over.reason.host_ended": "The host ended the game.",
    "history": "Rounds",
    "replay.title": "Replay",
    "replay.events": "Events",
    "replay.first": "First",
    "replay.prev": "Previous",
    "replay.next": "Next",
    "replay.last": "Last",
    "replay.play": "Play",
    "replay.pause": "Pause",
    "replay.step": "Event {i} of {n}",
    "replay.open": "Replay this game",
    "replay.empty": "No events to replay.",
    "ev.player_joined": "{name} joined",
    "ev.player_left": "{name} left",
    "ev.game_paused": "Nobody is at the table: the clocks stop",
    "ev.game_resumed": "Someone is back: the clocks run again (stopped for {time})",
    "ev.game_started": "The game starts",
    "ev.game_ended": "Game over",
    "color.red": "red",
    "color.green": "green",
    "color.blue": "blue",
    "color.yellow": "yellow",
    "color.silver": "silver",
    "color.transparent": "transparent",
    "color.any": "any",
    "symbol.circle": "circle",
    "symbol.triangle": "triangle",
    "symbol.square": "square",
    "symbol.hexagon": "hexagon",
    "symbol.vortex": "Cosmic vortex",
    "chip.name": "{color} {symbol}",
    "error": "Error",
    "err.closed": "The sand clock has run out: no more bids.",
    "err.turn": "It is not your demonstration.",
    "err.illegal_move": "That move is not possible.",
    "err.not_host": "Only the host can do that.",
    "err.not_seated": "Take a seat to play.",
    "err.phase": "Not possible at this moment of the game.",
    "err.join": "Cannot take a seat (name taken or game over).",
    "err.full": "The room is full.",
    "err.spectator": "Spectators cannot play: take a seat.",
    "err.rate_limited": "Slow down a little.",
    "error.network": "Network error: {msg}",
    "lobby.game": "Game",
    "color.purple": "purple",
    "color.orange": "orange",
    "color.cyan": "cyan",
    "color.white": "white",
    "demo.transparent.choose": "The transparent robot can stop in {n} places: tap one (+1 move per wall or diagonal passed), or press the arrow again and Enter.",
    "demo.transparent.stop": "Stop at {x},{y}: {n, plural, one {# move} other {# moves}}",
    "color.pink": "pink",
    "conn.not_sent": "Not sent: the connection is down. It will come back in a moment; then try again.",
    "conn.offline": "Connection lost — reconnecting… Nothing can be sent until then; what you type is kept.",
    "conn.closed": "The connection is closed.",
    "conn.action_unknown": "The connection dropped just after your last action: check the board to see whether it counted.",
    "confirm.leave": "Leave this room? Your chips stay yours; you can take your seat back with the link.",
    "confirm.leave_host": "Leave this room? You are the host: the next player becomes host.",
    "confirm.stay": "Stay",
    "confirm.restart": "Start a new game? This one ends now, with the scores as they are.",
    "confirm.end": "End the game now? The player with the most wins.",
    "confirm.keep": "Keep playing",
    "confirm.remove_player": "Remove {name} from the table? Their seat is freed; they may join again as a new player.",
    "room.remove_player": "Remove",
    "room.log": "Game log",
    "replay.speed": "Speed",
    "replay.rounds": "Rounds:",
    "cue.your_turn": "Your turn",
    "cue.new_round": "A new round begins",
    "cue.sound_on": "Sounds on (click to mute)",
    "cue.sound_off": "Sounds muted (click to turn on)",
    "cue.notify_on": "Notifications on (click to turn off)",
    "cue.notify_off": "Notifications off (click to be told when it is your turn)",
    "close": "Close",
    "tr.lobby": "Solo training",
    "tr.lobby.hint": "The puzzle of the day, rated puzzles, streaks — no opponent needed.",
    "tr.title": "Training",
    "tr.mode.daily": "Puzzle of the day",
    "tr.mode.rated": "Rated puzzles",
    "tr.mode.streak": "Streak",
    "tr.loading": "Making your puzzle…",
    "tr.daily_n": "Daily #{n} · {date}",
    "tr.streak_n": "Streak puzzle {n}",
    "tr.puzzle_rated": "Puzzle rated {rating}",
    "tr.moves": "Moves: {n} / {optimal}",
    "tr.undo": "Undo",
    "tr.reset": "Start over",
    "tr.give_up": "Give up",
    "tr.keys": "Keys: 1–4 pick a robot, arrows move it, U undo, R start over.",
    "tr.hints": "Hints",
    "tr.hint.1": "Moves",
    "tr.hint.2": "Robots",
    "tr.hint.3": "First move",
    "tr.hint.4": "Solution",
    "tr.hint.cost.1": "The optimal number of moves: costs a quarter of your score",
    "tr.hint.cost.2": "Which robots move: costs half of your score",
    "tr.hint.cost.3": "The first move: costs three quarters of your score",
    "tr.hint.cost.4": "The whole solution: the attempt counts as a miss",
    "tr.hint.free": "Free after your attempt",
    "tr.hint.help": "Each hint marks your attempt as assisted and costs rating points: 1 a quarter of your score, 2 half, 3 three quarters, 4 all of it.",
    "tr.hint.1.text": "The optimal solution takes {n, plural, one {# move} other {# moves}}.",
    "tr.hint.2.text": "Robots that move: {robots}.",
    "tr.hint.3.text": "First move: the {robot} robot {arrow} ({dir}).",
    "tr.hint.4.text": "Solution: {moves}.",
    "tr.link": "Link to this puzzle:",
    "tr.illegal.blocked": "The {robot} robot cannot move that way: it would not leave its square.",
    "tr.illegal.reversal": "The {robot} robot may not move straight back until another robot has moved.",
    "tr.illegal.cycle": "The {robot} robot would circle forever that way.",
    "tr.illegal.robot": "There is no such robot.",
    "tr.no_ricochet": "The robot is on the target without a ricochet: it must turn at least once. Keep going.",
    "tr.result.optimal": "Optimal! {n, plural, one {# move} other {# moves}} ⭐",
    "tr.result.found": "Solved in {n, plural, one {# move} other {# moves}} — {optimal} is optimal.",
    "tr.result.failed": "Not solved. The optimal solution takes {optimal, plural, one {# move} other {# moves}}.",
    "tr.short.optimal": "optimal",
    "tr.short.found": "solved",
    "tr.short.failed": "not solved",
    "tr.assisted": "Assisted: {n, plural, one {# hint level} other {# hint levels}} used.",
    "tr.rating_change": "Rating {before} → {after} ({change})",
    "tr.not_rated": "Not rated: only your first attempt at a puzzle counts.",
    "tr.show_solution": "Show the optimal solution",
    "tr.next": "Next puzzle",
    "tr.more": "Rated puzzles",
    "tr.again": "Try again (unrated)",
    "tr.copy": "Copy",
    "tr.copied": "Copied.",
    "tr.streak.on": "Current streak {n} · best {best}",
    "tr.streak.best": "Best streak: {best}",
    "tr.streak.ended": "Streak over after {n} · best {best}",
    "tr.streak.none": "Start a streak: puzzles get harder until your first miss.",
    "tr.streak.help": "Optimal solutions without hints keep a streak going; puzzles get longer as it grows. Streaks are not rated.",
    "tr.streak.start": "Start a streak",
    "tr.streak.restart": "Start again",
    "tr.rating": "Your rating",
    "tr.rating.new": "Glicko-2, starting at 1500: it moves with each first attempt.",
    "tr.rating.detail": "{game}: ±{rd} after {n, plural, one {# rated attempt} other {# rated attempts}}.",
    "tr.chart": "{n, plural, one {Your rating after your rated attempt} other {Your rating after each of # rated attempts}}",
    "tr.chart.empty": "Your rating chart starts with your first attempt.",
    "tr.account": "Your name",
    "tr.anonymous": "You play anonymously: your ratings live in this browser. Claim a name to find them on another device.",
    "tr.anonymous.new": "No account needed. Claim a name (or log in) to keep your ratings across devices.",
    "tr.name": "Name",
    "tr.password": "Password (8 characters or more)",
    "tr.claim": "Claim this name",
    "tr.login": "Log in",
    "tr.logout": "Log out",
    "tr.claimed": "You are now {name}.",
    "tr.logged_in": "Welcome back, {name}.",
    "tr.merged": "What you played before logging in is now in your account.",
    "tr.signed_in": "Signed in as {name}.",
    "tr.offline_load": "No network: a new puzzle needs it. A puzzle already on the page can still be solved.",
    "tr.offline_hint": "No network: hints and accounts need it.",
    "tr.offline_sent_later": "Offline: your result is kept and will be sent (and rated) when you are back online.",
    "tr.sent": "Your offline attempt was sent: {result}.",
    "tr.length": "Optimal length",
    "tr.length.auto": "Near my rating",
    "tr.length.n": "{n, plural, one {# move} other {# moves}}",
    "tr.style": "Style",
    "tr.style.any": "Any style",
    "letter.red": "R",
    "letter.green": "G",
    "letter.blue": "B",
    "letter.yellow": "Y",
    "letter.silver": "S",
    "letter.transparent": "T",
    "letter.purple": "P",
    "letter.orange": "O",
    "letter.cyan": "C",
    "letter.white": "W",
    "letter.pink": "P",
    "opt.name.placeholder": "Friday night",
    "ev.game_reset": "A new game begins (game {game})",
    "over.no_winner": "Nobody won: nobody scored.",
    "skip": "Skip to content",
    "lobby.quick.room": "{name} vs bots",
    "moves.title": "Moves",
    "moves.by": "{name}’s moves",
    "room.play_again": "Play again",
    "room.play_again.wait": "Waiting for the host to play again…",
    "confirm.leave_page": "Leave this game for the lobby? Your seat is kept for a while: the room’s link brings you back.",
    "room.to_lobby": "Go to the lobby",
    "replay.previous": "Replay the last game",
    "howto.done": "Got it",
    "howto.step": "Step {k} of {n}",
    "howto.open": "How to play",
    "lobby.how.rules": "The rules in a paragraph",
    "room.default_name": "{name}’s room",
  },
  fr: {
    "app.title": "Ricochet",
    "app.tagline": "Quatre jeux de robots, entre amis ou contre l’ordinateur : trouvez le plus court chemin, annoncez ou soyez le plus rapide, démontrez — ou programmez vos robots en secret.",
    "lang.label": "Langue",
    "nav.lobby": "Accueil",
    "lobby.nickname": "Votre pseudo",
    "lobby.nickname.placeholder": "p. ex. Alex",
    "lobby.quick": "Jouer contre l’ordinateur",
    "lobby.quick.hint": "Un clic : une salle avec deux joueurs automatiques démarre aussitôt.",
    "lobby.create": "Créer une salle",
    "lobby.rooms": "Salles publiques",
    "lobby.rooms.empty": "Aucune salle publique : créez-en une !",
    "lobby.refresh": "Actualiser",
    "lobby.join": "Rejoindre",
    "lobby.watch": "Regarder",
    "lobby.replay": "Revoir",
    "lobby.room.players": "{n, plural, one {# joueur} other {# joueurs}}",
    "lobby.room.bots": "{n, plural, one {# automatique} other {# automatiques}}",
    "lobby.room.who": "avec {names}",
    "lobby.room.spectators": "{n, plural, one {# spectateur} other {# spectateurs}}",
    "lobby.need_name": "Choisissez d’abord un pseudo.",
    "lobby.how": "Comment jouer",
    "opt.name": "Nom de la salle",
    "opt.private": "Salle privée (par lien seulement)",
    "opt.spectator_chat": "Les spectateurs peuvent discuter",
    "opt.bots": "Joueurs automatiques",
    "opt.bot_level": "Niveau des joueurs automatiques",
    "opt.more": "Options de règles",
    "room.create": "Créer",
    "room.join": "Prendre place",
    "room.leave": "Quitter",
    "room.share": "Copier le lien",
    "room.copied": "Lien copié.",
    "room.players": "Joueurs",
    "room.spectators": "Spectateurs",
    "room.spectators.none": "Personne ne regarde.",
    "room.you": "vous",
    "room.host": "hôte",
    "room.bot": "automatique",
    "room.away": "absent",
    "room.chips": "{n, plural, one {# jeton} other {# jetons}}",
    "room.score": "Score",
    "room.target_score": "Le premier à {n, plural, one {# jeton} other {# jetons}} gagne",
    "room.target_all": "On joue jusqu’à ce que tous les jetons soient gagnés",
    "room.host_controls": "Commandes de l’hôte",
    "room.lobby.host": "Invitez des amis avec le lien ou ajoutez des joueurs automatiques, puis commencez la partie.",
    "room.start": "Commencer la partie",
    "room.restart": "Nouvelle partie",
    "room.end": "Terminer la partie",
    "room.add_bot": "Ajouter un joueur automatique",
    "room.remove": "Retirer",
    "room.bot_level.beginner": "Débutant",
    "room.bot_level.intermediate": "Intermédiaire",
    "room.bot_level.expert": "Expert",
    "room.bot_level.perfect": "Parfait",
    "room.chat": "Discussion",
    "room.watching": "spectateur",
    "room.chat.placeholder": "Écrivez quelque chose…",
    "room.chat.send": "Envoyer",
    "room.connecting": "Connexion…",
    "room.reconnecting": "Connexion perdue, reconnexion…",
    "room.connected": "Connecté",
    "room.not_found": "Cette salle n’existe pas.",
    "phase.lobby": "En attente du lancement par l’hôte",
    "phase.over": "Partie terminée",
    "round.number": "Manche {n}",
    "bid.moves": "{n, plural, one {# mouvement} other {# mouvements}}",
    "clock.label": "Sablier",
    "clock.next": "Prochain jeton dans {s}",
    "demo.give_up": "Abandonner",
    "demo.time_left": "{s} pour démontrer",
    "demo.select": "Choisir le robot {robot}",
    "demo.move": "Aller vers {dir}",
    "demo.selected": "Robot {robot} choisi",
    "dir.N": "le haut",
    "dir.E": "la droite",
    "dir.S": "le bas",
    "dir.W": "la gauche",
    "over.winners": "{count, plural, one {Vainqueur} other {Vainqueurs}} : {names}",
    "over.reason.target_score": "Un joueur a atteint le score gagnant.",
    "over.reason.all_chips": "Tous les jetons ont été joués.",
    "over.reason.host_ended": "L’hôte a terminé la partie.",
    "history": "Manches",
    "replay.title": "Revoir la partie",
    "replay.events": "Événements",
    "replay.first": "Début",
    "replay.prev": "Précédent",
    "replay.next": "Suivant",
    "replay.last": "Fin",
    "replay.play": "Lecture",
    "replay.pause": "Pause",
    "replay.step": "Événement {i} sur {n}",
    "replay.open": "Revoir cette partie",
    "replay.empty": "Aucun événement à revoir.",
    "ev.player_joined": "{name} arrive",
    "ev.player_left": "{name} part",
    "ev.game_paused": "Plus personne à la table : les horloges s'arrêtent",
    "ev.game_resumed": "Quelqu'un est revenu : les horloges repartent (arrêtées {time})",
    "ev.game_started": "La partie commence",
    "ev.game_ended": "Partie terminée",
    "color.red": "rouge",
    "color.green": "vert",
    "color.blue": "bleu",
    "color.yellow": "jaune",
    "color.silver": "argent",
    "color.transparent": "transparent",
    "color.any": "toutes couleurs",
    "symbol.circle": "cercle",
    "symbol.triangle": "triangle",
    "symbol.square": "carré",
    "symbol.hexagon": "hexagone",
    "symbol.vortex": "Vortex cosmique",
    "chip.name": "{symbol} {color}",
    "error": "Erreur",
    "err.closed": "Le sablier est écoulé : plus d’annonce possible.",
    "err.turn": "Ce n’est pas votre démonstration.",
    "err.illegal_move": "Ce mouvement est impossible.",
    "err.not_host": "Seul l’hôte peut faire cela.",
    "err.not_seated": "Prenez place pour jouer.",
    "err.phase": "Impossible à ce moment de la partie.",
    "err.join": "Impossible de prendre place (pseudo déjà pris ou partie terminée).",
    "err.full": "La salle est pleine.",
    "err.spectator": "Les spectateurs ne jouent pas : prenez place.",
    "err.rate_limited": "Doucement !",
    "error.network": "Erreur réseau : {msg}",
    "lobby.game": "Jeu",
    "color.purple": "violet",
    "color.orange": "orange",
    "color.cyan": "cyan",
    "color.white": "blanc",
    "demo.transparent.choose": "Le robot transparent peut s’arrêter à {n} endroits : touchez-en un (+1 mouvement par mur ou diagonale traversé), ou appuyez encore sur la flèche puis Entrée.",
    "demo.transparent.stop": "S’arrêter en {x},{y} : {n, plural, one {# mouvement} other {# mouvements}}",
    "color.pink": "rose",
    "conn.not_sent": "Non envoyé : la connexion est coupée. Elle revient dans un instant ; réessayez alors.",
    "conn.offline": "Connexion perdue — reconnexion… Rien ne peut être envoyé d’ici là ; ce que vous tapez est gardé.",
    "conn.closed": "La connexion est fermée.",
    "conn.action_unknown": "La connexion a coupé juste après votre dernière action : regardez le plateau pour voir si elle a compté.",
    "confirm.leave": "Quitter cette salle ? Vos jetons restent à vous ; le lien vous rend votre place.",
    "confirm.leave_host": "Quitter cette salle ? Vous êtes l’hôte : le joueur suivant le devient.",
    "confirm.stay": "Rester",
    "confirm.restart": "Commencer une nouvelle partie ? Celle-ci s’arrête maintenant, avec les scores actuels.",
    "confirm.end": "Terminer la partie maintenant ? Le joueur qui a le plus gagne.",
    "confirm.keep": "Continuer",
    "confirm.remove_player": "Retirer {name} de la table ? Sa place est libérée ; il pourra revenir comme nouveau joueur.",
    "room.remove_player": "Retirer",
    "room.log": "Journal de la partie",
    "replay.speed": "Vitesse",
    "replay.rounds": "Manches :",
    "cue.your_turn": "À vous",
    "cue.new_round": "Une nouvelle manche commence",
    "cue.sound_on": "Sons activés (cliquer pour couper)",
    "cue.sound_off": "Sons coupés (cliquer pour activer)",
    "cue.notify_on": "Notifications activées (cliquer pour les couper)",
    "cue.notify_off": "Notifications coupées (cliquer pour être prévenu de votre tour)",
    "close": "Fermer",
    "tr.lobby": "Entraînement en solo",
    "tr.lobby.hint": "Le problème du jour, des problèmes classés, des séries — sans adversaire.",
    "tr.title": "Entraînement",
    "tr.mode.daily": "Problème du jour",
    "tr.mode.rated": "Problèmes classés",
    "tr.mode.streak": "Série",
    "tr.loading": "Préparation de votre problème…",
    "tr.daily_n": "Problème du jour n° {n} · {date}",
    "tr.streak_n": "Série, problème {n}",
    "tr.puzzle_rated": "Problème classé {rating}",
    "tr.moves": "Mouvements : {n} / {optimal}",
    "tr.undo": "Annuler",
    "tr.reset": "Recommencer",
    "tr.give_up": "Abandonner",
    "tr.keys": "Clavier : 1–4 choisissent un robot, les flèches le déplacent, U annule, R recommence.",
    "tr.hints": "Indices",
    "tr.hint.1": "Mouvements",
    "tr.hint.2": "Robots",
    "tr.hint.3": "Premier mouvement",
    "tr.hint.4": "Solution",
    "tr.hint.cost.1": "Le nombre optimal de mouvements : coûte un quart de votre score",
    "tr.hint.cost.2": "Les robots qui bougent : coûte la moitié de votre score",
    "tr.hint.cost.3": "Le premier mouvement : coûte les trois quarts de votre score",
    "tr.hint.cost.4": "Toute la solution : l’essai compte comme un échec",
    "tr.hint.free": "Gratuit après votre essai",
    "tr.hint.help": "Chaque indice marque votre essai comme aidé et coûte des points de classement : 1 un quart de votre score, 2 la moitié, 3 les trois quarts, 4 tout.",
    "tr.hint.1.text": "La solution optimale prend {n, plural, one {# mouvement} other {# mouvements}}.",
    "tr.hint.2.text": "Robots qui bougent : {robots}.",
    "tr.hint.3.text": "Premier mouvement : le robot {robot} {arrow} ({dir}).",
    "tr.hint.4.text": "Solution : {moves}.",
    "tr.link": "Lien vers ce problème :",
    "tr.illegal.blocked": "Le robot {robot} ne peut pas aller par là : il ne quitterait pas sa case.",
    "tr.illegal.reversal": "Le robot {robot} ne peut pas revenir en arrière avant qu’un autre robot ait bougé.",
    "tr.illegal.cycle": "Le robot {robot} tournerait en rond sans fin par là.",
    "tr.illegal.robot": "Ce robot n’existe pas.",
    "tr.no_ricochet": "Le robot est sur la cible sans ricochet : il doit tourner au moins une fois. Continuez.",
    "tr.result.optimal": "Optimal ! {n, plural, one {# mouvement} other {# mouvements}} ⭐",
    "tr.result.found": "Résolu en {n, plural, one {# mouvement} other {# mouvements}} — l’optimum est {optimal}.",
    "tr.result.failed": "Non résolu. La solution optimale prend {optimal, plural, one {# mouvement} other {# mouvements}}.",
    "tr.short.optimal": "optimal",
    "tr.short.found": "résolu",
    "tr.short.failed": "non résolu",
    "tr.assisted": "Aidé : {n, plural, one {# niveau d’indice utilisé} other {# niveaux d’indice utilisés}}.",
    "tr.rating_change": "Classement {before} → {after} ({change})",
    "tr.not_rated": "Non classé : seul votre premier essai sur un problème compte.",
    "tr.show_solution": "Montrer la solution optimale",
    "tr.next": "Problème suivant",
    "tr.more": "Problèmes classés",
    "tr.again": "Réessayer (non classé)",
    "tr.copy": "Copier",
    "tr.copied": "Copié.",
    "tr.streak.on": "Série en cours {n} · record {best}",
    "tr.streak.best": "Meilleure série : {best}",
    "tr.streak.ended": "Série terminée après {n} · record {best}",
    "tr.streak.none": "Lancez une série : les problèmes se corsent jusqu’à votre premier échec.",
    "tr.streak.help": "Des solutions optimales sans indice prolongent la série ; les problèmes s’allongent à mesure. Les séries ne sont pas classées.",
    "tr.streak.start": "Lancer une série",
    "tr.streak.restart": "Recommencer la série",
    "tr.rating": "Votre classement",
    "tr.rating.new": "Glicko-2, à partir de 1500 : il bouge à chaque premier essai.",
    "tr.rating.detail": "{game} : ±{rd} après {n, plural, one {# essai classé} other {# essais classés}}.",
    "tr.chart": "{n, plural, one {Votre classement après votre essai classé} other {Votre classement après chacun de vos # essais classés}}",
    "tr.chart.empty": "Votre courbe commence avec votre premier essai.",
    "tr.account": "Votre nom",
    "tr.anonymous": "Vous jouez anonymement : vos classements vivent dans ce navigateur. Réservez un nom pour les retrouver sur un autre appareil.",
    "tr.anonymous.new": "Pas besoin de compte. Réservez un nom (ou connectez-vous) pour garder vos classements d’un appareil à l’autre.",
    "tr.name": "Nom",
    "tr.password": "Mot de passe (8 caractères ou plus)",
    "tr.claim": "Réserver ce nom",
    "tr.login": "Se connecter",
    "tr.logout": "Se déconnecter",
    "tr.claimed": "Vous êtes maintenant {name}.",
    "tr.logged_in": "Bon retour, {name}.",
    "tr.merged": "Ce que vous avez joué avant de vous connecter est maintenant dans votre compte.",
    "tr.signed_in": "Connecté en tant que {name}.",
    "tr.offline_load": "Pas de réseau : un nouveau problème en a besoin. Un problème déjà affiché peut encore être résolu.",
    "tr.offline_hint": "Pas de réseau : les indices et les comptes en ont besoin.",
    "tr.offline_sent_later": "Hors ligne : votre résultat est gardé et sera envoyé (et classé) au retour du réseau.",
    "tr.sent": "Votre essai hors ligne a été envoyé : {result}.",
    "tr.length": "Longueur optimale",
    "tr.length.auto": "Selon mon classement",
    "tr.length.n": "{n, plural, one {# mouvement} other {# mouvements}}",
    "tr.style": "Style",
    "tr.style.any": "Tous les styles",
    "letter.red": "R",
    "letter.green": "V",
    "letter.blue": "B",
    "letter.yellow": "J",
    "letter.silver": "A",
    "letter.transparent": "T",
    "letter.purple": "Vi",
    "letter.orange": "O",
    "letter.cyan": "C",
    "letter.white": "Bc",
    "letter.pink": "Rs",
    "opt.name.placeholder": "Vendredi soir",
    "ev.game_reset": "Une nouvelle partie commence (partie {game})",
    "over.no_winner": "Personne n’a gagné : personne n’a marqué.",
    "skip": "Aller au contenu",
    "lobby.quick.room": "{name} contre l’ordinateur",
    "moves.title": "Mouvements",
    "moves.by": "Mouvements de {name}",
    "room.play_again": "Rejouer",
    "room.play_again.wait": "En attente de l’hôte pour rejouer…",
    "confirm.leave_page": "Quitter cette partie pour l’accueil ? Votre place est gardée un moment : le lien de la salle vous y ramène.",
    "room.to_lobby": "Aller à l’accueil",
    "replay.previous": "Revoir la partie précédente",
    "howto.done": "Compris",
    "howto.step": "Étape {k} sur {n}",
    "howto.open": "Comment jouer",
    "lobby.how.rules": "Les règles en un paragraphe",
    "room.default_name": "Salle de {name}",
  },
};

const STORE_KEY = "ricochet.lang";
let lang = pickDefault();
const listeners = new Set();

function pickDefault() {
  const saved = globalThis.localStorage?.getItem(STORE_KEY);
  if (saved && STRINGS[saved]) return saved;
  const nav = (globalThis.navigator?.language || "en").slice(0, 2).toLowerCase();
  return STRINGS[nav] ? nav : "en";
}

export function getLang() { return lang; }

export function setLang(code) {
  if (!STRINGS[code] || code === lang) return;
  lang = code;
  globalThis.localStorage?.setItem(STORE_KEY, code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

/**
 * Add a table of strings ({en: {key: text}, fr: {…}}: a game's, a shared module's).  Keys
 * are added, never silently replaced: a key another table gave differently is a mistake
 * (said on the console; the first stays).
 */
export function addStrings(table) {
  for (const [code, entries] of Object.entries(table)) {
    const into = STRINGS[code];
    if (!into) continue;
    for (const [key, text] of Object.entries(entries)) {
      if (key in into && into[key] !== text) console.warn(`i18n: ${code} "${key}" is defined twice`);
      else into[key] = text;
    }
  }
}

/** Call fn(lang) after every language change (views re-render their dynamic parts). */
export function onLangChange(fn) { listeners.add(fn); }

/** A game's own wording of a key ("<game>:phase.bidding": a timer, not a sand clock), else the shared one. */
export function tg(game, key, params = {}) {
  const own = `${game}:${key}`;
  return t(own in STRINGS.en ? own : key, params);
}

const PLURAL = /\{(\w+), plural,((?:\s*=?\w+\s*\{(?:[^{}]|\{\w+\})*\})+)\s*\}/g;
const BRANCH = /\s*(=?\w+)\s*\{((?:[^{}]|\{\w+\})*)\}/g;
const rules = {};

/** The branch of a plural block for the number n in the page's language (CLDR's categories). */
function pluralOf(branches, n) {
  const forms = new Map([...branches.matchAll(BRANCH)].map((b) => [b[1], b[2]]));
  if (forms.has(`=${n}`)) return forms.get(`=${n}`);
  rules[lang] ??= new Intl.PluralRules(lang);
  return forms.get(rules[lang].select(n)) ?? forms.get("other") ?? "";
}

export function t(key, params = {}) {
  const text = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return text
    .replace(PLURAL, (m, name, branches) => {
      if (!(name in params)) return m;
      const n = Number(params[name]);
      return pluralOf(branches, n).replace(/#/g, String(params[name]));
    })
    .replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** "red", "rouge"… */
export function colorName(color) { return t(`color.${color}`); }

/**
 * A colour's letter in the page's language ("R" red, "V" vert, "Bc" blanc): drawn on robots, spaces
 * and targets, so that a colour is never told by its hue alone.  "?" for a colour with no letter.
 */
export function colorLetter(color) { return `letter.${color}` in STRINGS.en ? t(`letter.${color}`) : "?"; }

/** A chip's name: "red circle", "cercle rouge", "Vortex cosmique". */
export function chipName(chip) {
  if (!chip) return "";
  if (chip.symbol === "vortex") return t("symbol.vortex");
  return t("chip.name", { color: colorName(chip.color), symbol: t(`symbol.${chip.symbol}`) });
}

/** A server error for people: the server's precise English message, or our translation of its code. */
export function errorText(msg, game = null) {
  const key = `err.${msg.code}`;
  if (lang === "en" || !(key in STRINGS[lang])) return msg.message || tg(game, key);
  return tg(game, key);
}

/**
 * A player's name as shown.  A bot's name is "<name> (<level>)" as the server makes it: its level is
 * said in the page's language ("Ada (intermédiaire)"); ``short`` leaves it out ("Ada": on a board,
 * beside a badge that says the level).  ``levels``: the levels the name may end with (a bot seat's
 * own level; in a replay, the game's levels).  Anyone else's name is theirs, untouched.
 */
export function playerName(name, levels = [], short = false) {
  for (const level of levels || []) {
    const tail = ` (${level})`;
    if (level && typeof name === "string" && name.endsWith(tail) && name.length > tail.length) {
      const base = name.slice(0, -tail.length);
      return short ? base : `${base} (${t(`room.bot_level.${level}`).toLocaleLowerCase(lang)})`;
    }
  }
  return name;
}

/** "1 move", "5 moves", "1 mouvement" … */
export function movesText(n) { return t("bid.moves", { n }); }

/** Translate the static markup under root. */
export function apply(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  document.title = t("app.title");
}
