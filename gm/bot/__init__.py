"""Orders chosen by gm itself for a power: the stand-in policies (gm.bot.policies: HOLD, DEFEND,
REPEAT, BOT) and the bot that plays every variant gm plays (gm.bot.play).

Everything here reads only the position a power's player sees (the board, the centres, the
variant's map as it is now) and the engine's own legality (gm.engine.order_check and the
variant's adjudication, through gm.bot.legal): no order it gives is refused by the engine.
"""
