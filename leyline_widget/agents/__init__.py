"""Players that are programs: bots that see only their seat's view, and batch simulation."""

from .bots import BOT_KINDS, Bot, BotSeat, GreedyBot, MemoryBot, RandomBot, make_bot
from .ladder import Ladder, ladder
from .simulate import Rows, simulate, sweep

__all__ = ["BOT_KINDS", "Bot", "BotSeat", "GreedyBot", "Ladder", "MemoryBot", "RandomBot",
           "Rows", "ladder", "make_bot", "simulate", "sweep"]
