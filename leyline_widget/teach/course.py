"""The built-in course: short lessons covering every section of the seed rules, as data.

Each lesson quotes the seed rule it teaches, sets up a scenario in a few lines and asks for a few
moves. Cards a lesson says you "remember" are the scenario's seen cards; the others are hidden and
grading never depends on them.

>>> [lesson.id for lesson in COURSE][:3]
['activate-collect', 'deactivate-pass', 'flip-back']
>>> lesson("game-end").section
'Game End'
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from ..core.actions import Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from ..core.echo import names, quote
from ..core.rules import Rules
from .lessons import Lesson, Step, activated, collected, game_over, in_phase, token_on
from .scenario import Scenario

__all__ = ["COURSE", "PROGRESS", "RECALL", "SECTIONS", "Progress", "course", "lesson"]

#: The sections of the seed rules a course must cover (the seed's own headings).
SECTIONS = ("Activation and Collection", "Binding Spell Tokens", "Placing Tokens",
            "Token Return", "Refill", "Powers", "Game End")

_DEACTIVATE = {"type": "deactivate"}
_REFILL = {"type": "refill"}


def _activate(*slots: int) -> list[Any]:
    return [Activate(s) for s in slots]


COURSE: tuple[Lesson, ...] = (
    Lesson(
        "activate-collect", "Activate and collect", "Activation and Collection",
        "The active player may activate up to 3 Leylines from the grid by flipping cards from "
        "the inert side to the Element side. [...] At the end of Phase 2, for each element "
        "among the activated cards: if 2 or more cards of that element are activated, all "
        "activated cards of that element are collected into the Study.",
        Scenario().grid("? wa ? f / ? ? wa ? / ? ? ? ?").seen(1, 3, 6),
        intro="Cards lie inert: you only know what you remember. Collect a pair.",
        steps=(
            Step("You remember Water at slots 1 and 6, and Fire at slot 3. Activate one of "
                 "the two Water cards.",
                 accept=_activate(1, 6),
                 wrong={Activate(3): "Slot 3 is the Fire you remember, and you know no other "
                                     "Fire: alone it would not be collected. Start with a "
                                     "Water card."},
                 hints=("The Water cards you remember are at slots 1 and 6.",),
                 success="Flipped to its Element side: everyone now sees a Water card."),
            Step("Activate the other Water card.",
                 accept=_activate(1, 6), solution=Activate(6),
                 wrong={Activate(3): "A lone Fire would not be collected; activate the "
                                     "second Water card."},
                 hints=("You remember Water at slots 1 and 6; one is already activated.",),
                 success="Two Water cards are activated."),
            Step("Click Collect (it ends Phase 2): every element with 2 or more activated "
                 "cards is collected into your Study.",
                 accept=EndPhase(), goal=collected("water"),
                 wrong={Activate(3): "You may activate up to 3 cards, but a lone Fire would "
                                     "only flip back. End the phase now.",
                        **{Deactivate(s): "Keep both Water cards activated: 2 are needed to "
                                          "collect." for s in (1, 6)}},
                 hints=("End the phase: that resolves Phase 2.",),
                 success="Both Water cards went into your Study: you score 2."),
        ),
        summary="Activate what you remember; 2 or more of an element are collected.",
    ),
    Lesson(
        "deactivate-pass", "Deactivate, and pass", "Activation and Collection",
        "Passing is a valid choice. Click an already-activated card to deactivate it and "
        "refund the activation.",
        Scenario().grid("e ? ? ? / e ? ? ? / ? wa ? e").active(0, 4, 9).seen(11)
        .deck_top("fire", "wind", "earth"),
        intro="Three activations a turn: spend them well, or not at all.",
        steps=(
            Step("You activated Earth at slots 0 and 4 and Water at slot 9: all 3 activations "
                 "are used, and the Water has no partner. Deactivate it to get the activation "
                 "back.",
                 accept=Deactivate(9),
                 wrong={Deactivate(0): "Slot 0 is one of your Earth cards; the Water at slot 9 "
                                       "is the one without a partner.",
                        Deactivate(4): "Slot 4 is one of your Earth cards; the Water at slot 9 "
                                       "is the one without a partner.",
                        EndPhase(): "Ending now collects the Earth pair but wastes an "
                                    "activation on a lone Water. Deactivate it first."},
                 hints=("Click an activated card to deactivate it.",),
                 success="The Water flipped back, and you have an activation again."),
            Step("Now activate the third Earth card you remember, at slot 11.",
                 accept=Activate(11),
                 wrong={Activate(9): "That is the lone Water you just deactivated."},
                 hints=("You remember Earth at slot 11.",),
                 success="Three Earth cards are activated."),
            Step("Click Collect to collect all three Earth cards.",
                 accept=EndPhase(), goal=collected("earth", count=3),
                 wrong=[(_DEACTIVATE, "Keep all three Earth cards activated.")],
                 hints=("End the phase.",),
                 success="Three Earth cards collected. The empty slots were refilled from the "
                         "deck (you saw each new card) and your turn ended.",
                 then=(Refill(0), Refill(4), Refill(11), EndPhase())),
            Step("Turn 2. You remember Fire at slot 0, Wind at 4, Water at 9 and Earth at 11: "
                 "no two alike. Passing is a valid choice: end Phase 2 without activating "
                 "anything.",
                 accept=EndPhase(),
                 wrong={Activate(s): "That card would be alone and flip back at the end of "
                                     "the phase. Pass instead." for s in (0, 4, 9, 11)},
                 hints=("End the phase without activating a card.",),
                 success="You passed: nothing collected, nothing lost."),
        ),
        summary="A lone card is a wasted activation: deactivate it, or pass.",
    ),
    Lesson(
        "flip-back", "Flip back", "Activation and Collection",
        "Cards whose element has fewer than 2 activations flip back to inert.",
        Scenario().grid("? ? wi ? / ? wi ? f / ? ? ? ?").seen(2, 5, 7)
        .deck_top("fire", "water"),
        intro="A card that is not collected goes back to the grid, where you can remember it.",
        steps=(
            Step("Activate the two Wind cards you remember (slots 2 and 5) and the Fire at "
                 "slot 7.",
                 goal=activated(2, 5, 7), allow=[*_activate(2, 5, 7), _DEACTIVATE],
                 solution=_activate(2, 5, 7),
                 hints=("Three activations: slots 2, 5 and 7.",),
                 success="Two Wind and one Fire are activated."),
            Step("Click Collect, and watch what happens to the lone Fire.",
                 accept=EndPhase(), goal=collected("wind"),
                 wrong=[(_DEACTIVATE, "Keep the three cards activated and end the phase.")],
                 hints=("End the phase.",),
                 success="The Wind pair went to your Study. The Fire had fewer than 2 "
                         "activations, so it flipped back to inert: it is still at slot 7, "
                         "and you still know it. Then you refilled slots 2 and 5 (a Fire, then "
                         "a Water) and your turn ended.",
                 then=(Refill(2), Refill(5), EndPhase(), EndPhase())),
            Step("Turn 2 (Phase 1 was skipped for you). The Fire that flipped back is at slot "
                 "7, and the deck's Fire went into slot 2. Collect the Fire pair.",
                 goal=collected("fire"), allow=[*_activate(2, 7), _DEACTIVATE],
                 solution=(*_activate(2, 7), EndPhase()),
                 wrong={Activate(5): "Slot 5 holds the Water you refilled; this step wants "
                                     "the Fire pair (slots 2 and 7)."},
                 otherwise="Activate the two Fire cards (slots 2 and 7), then end the phase.",
                 hints=("You remember Fire at slots 2 and 7.",),
                 success="Collected: the card that flipped back was worth remembering."),
        ),
        summary="Uncollected cards flip back in place; remember them for later turns.",
    ),
    Lesson(
        "binding", "Binding Spell tokens", "Binding Spell Tokens",
        "A Leyline with tokens on it may only be activated by a player who has collected at "
        "least as many elements of the same type as tokens of that type on the card. Example: "
        "a card with two Wind tokens and one Fire token may only be activated by a player who "
        "has collected at least two Wind and one Fire.",
        Scenario(players=["You", "Rival"]).grid("? ? ? ? / e ? ? ? / ? e e ?")
        .seen(4, 9, 10).tokens(4, wind=2, fire=1).tokens(9, wind=3)
        .study(0, wind=2, fire=1),
        intro="Tokens lock a card to players whose Study holds enough of their elements.",
        steps=(
            Step("Slot 4 holds Earth under 2 Wind tokens and 1 Fire token. Your Study holds 2 "
                 "Wind and 1 Fire: enough. Activate it.",
                 accept=Activate(4),
                 hints=("Each token of an element needs one card of that element in your "
                        "Study.",),
                 success="Allowed: your Study matches every token on it."),
            Step("Slot 9's Earth is bound by 3 Wind tokens. Activate another Earth card you "
                 "may activate.",
                 accept=Activate(10),
                 hints=("3 Wind tokens need 3 Wind in your Study; you have 2.",
                        "The token-free one is at slot 10."),
                 success="Slot 10 is free of tokens: anyone may activate it."),
            Step("Click Collect to collect the Earth pair.",
                 accept=EndPhase(), goal=collected("earth"),
                 hints=("End the phase.",),
                 success="Collected. Your Rival, with no Wind or Fire in their Study, could not "
                         "have activated slot 4 at all. Its tokens left the board: the next "
                         "lessons show where they go."),
        ),
        summary="A bound card is open only to Studies that match its tokens.",
    ),
    Lesson(
        "token-sources", "Placing tokens: three sources", "Placing Tokens",
        "From the supply (paid): discard one element from your Study to take a matching token "
        "from the supply. The discarded element becomes a permanent Spent Element marker in "
        "your area.\n- From your Spent Element marker (free): if returned tokens are stacked on "
        "your marker, place one for free.\n- From the Token Pool (free): if there are matching "
        "tokens in the shared Token Pool and you have a matching Spent Element marker, take "
        "one and place it for free.",
        Scenario().phase("binding").study(0, fire=2, water=1)
        .markers(0, water=1, earth=1, stacked={"water": 1}).pool(earth=1),
        intro="Phase 3: each Binding Spell token is paid from the supply, or free from a "
              "marker or the Token Pool.",
        steps=(
            Step("Pay from the supply: discard a Fire from your Study to place a Fire token on "
                 "any card.",
                 accept={"type": "place_token", "element": "fire", "source": "supply"},
                 solution=PlaceToken(0, "fire", "supply"),
                 wrong=[({"type": "place_token", "source": "marker"},
                         "That is a free token from your Spent marker; this step asks you to "
                         "pay for a Fire token from the supply."),
                        ({"type": "place_token", "source": "pool"},
                         "That is a free token from the Token Pool; this step asks you to pay "
                         "for a Fire token from the supply."),
                        (EndPhase(), "Ending Phase 3 ends your turn; place the Fire token "
                                     "first.")],
                 otherwise="This step asks for a Fire token paid from the supply.",
                 hints=("Choose the supply as the source, and Fire as the element.",),
                 success="A Fire card left your Study and became a Spent Fire marker; the "
                         "token lies on the card."),
            Step("A returned Water token is stacked on your Spent Water marker. Place it for "
                 "free.",
                 accept={"type": "place_token", "element": "water", "source": "marker"},
                 solution=PlaceToken(1, "water", "marker"),
                 wrong=[({"type": "place_token", "element": "water", "source": "supply"},
                         "That works, but it discards your only Water card from your Study. "
                         "The token on your marker is free.")],
                 otherwise="This step asks for the Water token on your Spent Water marker.",
                 hints=("Choose your Spent marker as the source.",),
                 success="Free: the stack on your marker is empty now."),
            Step("The Token Pool holds an Earth token, and you have a Spent Earth marker. Take "
                 "it for free and place it.",
                 accept={"type": "place_token", "element": "earth", "source": "pool"},
                 solution=PlaceToken(2, "earth", "pool"),
                 otherwise="This step asks for the Earth token from the Token Pool.",
                 hints=("Choose the Token Pool as the source, and Earth as the element.",),
                 success="Free as well: a matching Spent marker lets you draw on the Pool."),
        ),
        summary="Supply costs a Study card (and makes a marker); marker stacks and the Pool "
                "are free.",
    ),
    Lesson(
        "token-return", "Token return: markers and the Pool", "Token Return",
        "When the card under a Binding Spell Token is collected, the token is removed from the "
        "board. The active player may move any matching tokens onto their own Spent Element "
        "markers (a matching marker is required to claim). Any tokens the active player does "
        "not or cannot claim go to the shared Token Pool in the center of the table. Pool "
        "tokens stay in play until any player with a matching marker takes one on their own "
        "turn.",
        Scenario().grid("? wi ? ? / ? ? wi ? / ? ? ? ?").seen(1, 6)
        .tokens(1, fire=1).tokens(6, water=1).study(0, fire=1, water=1).markers(0, fire=1)
        .deck_top("earth", "fire"),
        intro="Freed tokens go to your matching Spent marker, or to the shared Token Pool.",
        steps=(
            Step("The Wind pair you remember (slots 1 and 6) carries a Fire token and a Water "
                 "token. Your Study holds 1 Fire and 1 Water, so you may activate both. "
                 "Activate them.",
                 goal=activated(1, 6), allow=[*_activate(1, 6), _DEACTIVATE],
                 solution=_activate(1, 6),
                 hints=("Slots 1 and 6.",),
                 success="Both bound cards are activated."),
            Step("Click Collect and watch where the tokens go.",
                 accept=EndPhase(), goal=collected("wind"),
                 hints=("End the phase.",),
                 success="The Fire token went onto your Spent Fire marker. You have no Spent "
                         "Water marker, so the Water token went to the Token Pool. (The empty "
                         "slots were refilled for you.)",
                 then=(Refill(1), Refill(6))),
            Step("Phase 3. Place the Fire token stacked on your Spent Fire marker, for free.",
                 accept={"type": "place_token", "element": "fire", "source": "marker"},
                 solution=PlaceToken(0, "fire", "marker"),
                 otherwise="This step asks for the Fire token on your Spent Fire marker.",
                 hints=("Choose your Spent marker as the source.",),
                 success="Your returned token is back at work."),
            Step("The Water token in the Pool needs a Spent Water marker to claim. Make one: "
                 "pay your Water card to place a Water token from the supply.",
                 accept={"type": "place_token", "element": "water", "source": "supply"},
                 solution=PlaceToken(3, "water", "supply"),
                 otherwise="This step asks for a Water token paid from the supply.",
                 hints=("Paying from the supply turns the Study card into a Spent marker.",),
                 success="You now have a Spent Water marker."),
            Step("Now take the Water token from the Token Pool, for free.",
                 accept={"type": "place_token", "element": "water", "source": "pool"},
                 solution=PlaceToken(4, "water", "pool"),
                 otherwise="This step asks for the Water token from the Token Pool.",
                 hints=("Choose the Token Pool as the source.",),
                 success="Claimed from the Pool with your new marker."),
        ),
        summary="Freed tokens stack on your matching marker, else wait in the Pool for anyone "
                "with a matching marker.",
    ),
    Lesson(
        "cleanup-refill", "Cleanup and refill", "Refill",
        "When cards leave the grid, removals resolve first as a single cleanup. The active "
        "player then refills the empty slots from the top of the Leyline deck, one card at a "
        "time. [...] Token placement happens after refill, so you can place tokens on cards "
        "that were just refilled.",
        Scenario().grid("f ? ? ? / ? f ? ? / ? ? ? ?").seen(0, 5).deck_top("water", "earth"),
        intro="The deck stays face up: you always see the next card to be drawn.",
        steps=(
            Step("Collect the Fire pair you remember (slots 0 and 5).",
                 goal=collected("fire"), allow=[*_activate(0, 5), _DEACTIVATE],
                 solution=(*_activate(0, 5), EndPhase()),
                 otherwise="Activate the two Fire cards (slots 0 and 5), then end the phase.",
                 hints=("Activate slots 0 and 5, then end the phase.",),
                 success="Both cards left the grid together in one cleanup: slots 0 and 5 are "
                         "empty."),
            Step("The deck stays face up: its top card, Water, is the next to be drawn. Click "
                 "an empty slot to put it there (you choose which).",
                 accept=_REFILL, solution=Refill(5),
                 hints=("Every empty slot must be refilled before Phase 3.",),
                 success="Placed, and everyone glimpsed it. Earth is now on top of the deck."),
            Step("Refill the last empty slot with the Earth from the top of the deck.",
                 accept=_REFILL, solution=Refill(0),
                 hints=("Click the empty slot.",),
                 success="The grid is full again: Phase 3 begins."),
            Step("Tokens are placed after refill, so they may go on cards just refilled. Pay "
                 "for a Fire token from the supply and place it on the Earth you just "
                 "refilled.",
                 accept={"type": "place_token", "element": "fire", "source": "supply"},
                 goal=token_on("fire", "earth"),
                 solution=PlaceToken(0, "fire", "supply"),
                 otherwise="This step asks for a Fire token paid from the supply.",
                 hints=("The Earth went where you refilled second.",),
                 success="The new card is bound before anyone could collect it."),
        ),
        summary="Cleanup first, then refill one card at a time from the face-up deck, then "
                "tokens.",
    ),
    Lesson(
        "minor-powers", "Minor powers: Whisper and Spark", "Powers",
        "At 2 collected of an element, the Minor power button unlocks.",
        Scenario().phase("abilities").grid("? wa ? e / ? ? e ? / ? ? wa ?").seen(1, 3, 10)
        .study(0, wind=2, fire=2),
        intro="Phase 1: powers you have unlocked may each be used once this turn.",
        steps=(
            Step("2 Wind in your Study unlock Whisper: peek at one inert card (only you see "
                 "it). Use it on slot 6, a card you have never seen.",
                 accept=UsePower("wind", "minor", (6,)),
                 wrong=[({"type": "use_power", "element": "wind", "tier": "minor"},
                         "Whisper may peek at any card, but this lesson peeks at slot 6, "
                         "which you have never seen."),
                        ({"type": "use_power", "element": "fire"},
                         "Spark comes next; first peek at slot 6 with Whisper."),
                        (EndPhase(), "Ending Phase 1 now wastes both of your powers.")],
                 hints=("Use the Wind minor power (Whisper) with slot 6 as its target.",),
                 success="Only you saw it: slot 6 is Earth."),
            Step("2 Fire unlock Spark: +1 activation this turn. Use Spark.",
                 accept=UsePower("fire", "minor"),
                 wrong={EndPhase(): "Without Spark you have only 3 activations; you will want "
                                    "4."},
                 hints=("Use the Fire minor power (Spark); it takes no target.",),
                 success="4 activations this turn. Phase 2 begins."),
            Step("Collect the Earth pair (slots 3 and 6) and the Water pair (slots 1 and 10).",
                 goal=collected("earth", "water"),
                 allow=[*_activate(1, 3, 6, 10), _DEACTIVATE],
                 solution=(*_activate(1, 10, 3, 6), EndPhase()),
                 otherwise="Activate both pairs (slots 1, 3, 6 and 10), then end the phase.",
                 hints=("Spark's extra activation lets you take two pairs.",),
                 success="Two pairs in one turn, from a card you peeked at."),
        ),
        summary="2 of an element unlock its Minor power, usable once a turn in Phase 1.",
    ),
    Lesson(
        "unbind-ripple", "Minor powers: Unbind and Ripple", "Powers",
        "At 2 collected of an element, the Minor power button unlocks.",
        Scenario().phase("abilities").grid("? ? f ? / ? ? ? f / ? ? ? ?").seen(2, 7)
        .tokens(2, wind=2).study(0, water=2, earth=2),
        intro="Powers change the grid: your memory has to follow.",
        steps=(
            Step("Slot 2's Fire is bound by 2 Wind tokens, and your Study holds no Wind. 2 "
                 "Earth unlock Unbind: remove all tokens from one card. Use it on slot 2.",
                 accept=UsePower("earth", "minor", (2,)),
                 wrong=[(EndPhase(), "Slot 2 stays bound unless you Unbind it first.")],
                 hints=("Use the Earth minor power (Unbind) on slot 2.",),
                 success="The Wind tokens left the card; with no Spent Wind marker to claim "
                         "them, they went to the Token Pool."),
            Step("2 Water unlock Ripple: swap two grid cards (tokens move with their card). "
                 "Swap slots 2 and 5, and follow the Fire with your memory.",
                 accept=UsePower("water", "minor", (2, 5)),
                 wrong=[({"type": "use_power", "element": "water"},
                         "This lesson swaps slots 2 and 5.")],
                 hints=("Use the Water minor power (Ripple) on slots 2 and 5.",),
                 success="The Fire moved to slot 5; the unknown card from slot 5 is at slot 2."),
            Step("Collect the Fire pair: one is at slot 7, the other moved to slot 5.",
                 goal=collected("fire"), allow=[*_activate(5, 7), _DEACTIVATE],
                 solution=(*_activate(5, 7), EndPhase()),
                 otherwise="Activate slots 5 and 7, then end the phase.",
                 hints=("Knowledge follows the card: the Fire from slot 2 is at slot 5 now.",),
                 success="Collected, because you followed the swap."),
        ),
        summary="Unbind frees a card; Ripple moves cards, and what you know moves with them.",
    ),
    Lesson(
        "sanctuary-wildfire", "Major powers: Sanctuary and Wildfire", "Powers",
        "At 5, the Major button unlocks.",
        Scenario().phase("abilities").grid("? ? ? ? / wa ? ? ? / ? wi ? ?").seen(4, 9)
        .tokens(4, wind=3).study(0, fire=5, earth=5)
        .effects(powers_used=["fire:minor", "earth:minor"]),
        intro="Five of an element unlock its Major power.",
        steps=(
            Step("5 Earth unlock Sanctuary: ignore Binding tokens when activating this turn. "
                 "Use it.",
                 accept=UsePower("earth", "major"),
                 wrong={EndPhase(): "Ending Phase 1 now wastes Sanctuary and Wildfire."},
                 hints=("Use the Earth major power (Sanctuary).",),
                 success="This turn no token can stop you."),
            Step("5 Fire unlock Wildfire: this turn every activated card is collected, even a "
                 "lone one. Use it.",
                 accept=UsePower("fire", "major"),
                 wrong={EndPhase(): "Without Wildfire a lone card only flips back."},
                 hints=("Use the Fire major power (Wildfire).",),
                 success="The collect threshold is 1 this turn. Phase 2 begins."),
            Step("Collect the Water at slot 4 (under 3 Wind tokens) and the lone Wind at slot 9.",
                 goal=collected("water", "wind"), allow=[*_activate(4, 9), _DEACTIVATE],
                 solution=(*_activate(4, 9), EndPhase()),
                 otherwise="Activate slots 4 and 9, then end the phase.",
                 hints=("Sanctuary lets you activate slot 4; Wildfire collects single cards.",),
                 success="A bound card and a lone card, both collected."),
        ),
        summary="Sanctuary ignores tokens; Wildfire collects every activated card.",
    ),
    Lesson(
        "gale-tide", "Major powers: Gale and Tide", "Powers",
        "At 5, the Major button unlocks. [...] The Leyline deck stays face-up throughout the "
        "game so the next card to be drawn is visible to all players.",
        Scenario().phase("abilities").grid("f ? ? f / ? wi ? e / ? ? ? wa").seen(0, 5)
        .deck_top("fire").study(0, water=5, wind=5)
        .effects(powers_used=["water:minor", "wind:minor"]),
        intro="Peek at several cards at once, or trade a grid card for the deck's top card.",
        steps=(
            Step("5 Wind unlock Gale: peek at up to three inert cards. Peek at slots 3, 7 and "
                 "11, which you have never seen.",
                 accept=UsePower("wind", "major", (3, 7, 11)),
                 wrong=[({"type": "use_power", "element": "wind"},
                         "Gale may peek at one to three cards; this lesson peeks at slots 3, 7 "
                         "and 11."),
                        ({"type": "use_power", "element": "water"},
                         "Tide comes next; first peek with Gale.")],
                 hints=("Use the Wind major power (Gale) on slots 3, 7 and 11.",),
                 success="Only you saw them: Fire at 3, Earth at 7, Water at 11."),
            Step("The deck's top card is Fire, and everyone can see it. 5 Water unlock Tide: "
                 "swap a token-free grid card with the top deck card. Swap the Wind at slot 5 "
                 "for the Fire.",
                 accept=UsePower("water", "major", (5,)),
                 wrong=[({"type": "use_power", "element": "water"},
                         "This lesson trades the Wind at slot 5 for the deck's Fire.")],
                 hints=("Use the Water major power (Tide) on slot 5.",),
                 success="The Fire came onto the grid at slot 5 (everyone glimpsed it); the "
                         "Wind is now on top of the deck."),
            Step("You know three Fire cards: slots 0, 3 and 5. Collect all three.",
                 goal=collected("fire", count=3), allow=[*_activate(0, 3, 5), _DEACTIVATE],
                 solution=(*_activate(0, 3, 5), EndPhase()),
                 otherwise="Activate slots 0, 3 and 5, then end the phase.",
                 hints=("Three activations, three Fire cards.",),
                 success="Three Fire, found by peeking and by reading the deck."),
        ),
        summary="Gale peeks at up to three cards; Tide trades with the face-up deck.",
    ),
    Lesson(
        "game-end", "The end of the game, and ties", "Game End",
        "The game ends when a card would be refilled and the Leyline deck is empty. Whoever "
        "has the most total cards in their Study wins. Ties share the victory.",
        Scenario(players=["You", "Rival"],
                 rules=Rules.default().replace(cards_per_element=3, grid_rows=2, grid_cols=2))
        .grid("e e / wa e").seen(0, 1, 2, 3).deck("water")
        .study(0, fire=1, wind=1).study(1, fire=2, wind=2, water=1),
        intro="A small table: a 2x2 grid, 3 cards of each element, one card left in the deck.",
        steps=(
            Step("Your Rival has 5 cards in their Study, you have 2. Activate the three Earth "
                 "cards you remember.",
                 goal=activated(0, 1, 3), allow=[*_activate(0, 1, 3), _DEACTIVATE],
                 solution=_activate(0, 1, 3),
                 wrong={Activate(2): "The Water at slot 2 would be alone and flip back; you "
                                     "want the Earth cards."},
                 hints=("Slots 0, 1 and 3.",),
                 success="Three Earth cards are activated."),
            Step("Click Collect: three Earth cards make your score 5.",
                 accept=EndPhase(), goal=collected("earth", count=3),
                 wrong=[(_DEACTIVATE, "Two Earth cards would leave you at 4, behind your "
                                     "Rival's 5. Keep all three.")],
                 hints=("End the phase.",),
                 success="5 to 5. Three slots are empty and one card is left in the deck."),
            Step("Refill an empty slot with the deck's last card.",
                 accept=_REFILL, goal=game_over(winners=[0, 1]), solution=Refill(0),
                 hints=("Click an empty slot.",),
                 success="The deck is empty and a card would still have to be refilled: the "
                         "game ends. Both of you have 5 cards in your Study: ties share the "
                         "victory."),
        ),
        summary="The game ends when a refill meets an empty deck; the most cards win, ties "
                "share.",
    ),
)

#: Recall versions of the lessons that ask for remembered cards: the cards are shown once at
#: the start, the tasks name elements ("the two Water cards you saw"), never slots, and the
#: hints escalate: first where to think back to, then the slots (the last, as in every lesson,
#: shows the moves).
RECALL: tuple[Lesson, ...] = (
    Lesson(
        "recall-pair", "Recall: a pair you saw", "Activation and Collection",
        COURSE[0].rule,
        Scenario().grid("? wa ? f / ? ? wa ? / ? ? ? ?").seen(1, 3, 6)
        .deck_top("earth", "wind"),
        intro="Three cards are shown to you once, face up. Watch them: then collect a pair "
              "from memory.",
        steps=(
            Step("Collect the two Water cards you saw.",
                 goal=collected("water"), allow=[*_activate(1, 6), _DEACTIVATE],
                 solution=(*_activate(1, 6), EndPhase()),
                 wrong={Activate(3): "That is the Fire you saw: a lone Fire would only flip "
                                     "back. The Water cards are elsewhere."},
                 otherwise="Activate the two Water cards you saw, then end the phase.",
                 hints=("Think back to the three cards shown at the start: two of them were "
                        "Water.",
                        "The Water cards are at slots 1 and 6."),
                 success="Both Water cards went into your Study, from memory. The two empty "
                         "slots were refilled for you and your turn ended.",
                 then=(Refill(1), Refill(6), EndPhase(), EndPhase())),
            Step("Turn 2 (Phase 1 was skipped for you). The Fire you saw at the start is still "
                 "on the grid: activate it.",
                 accept=Activate(3),
                 otherwise="This step asks for the Fire you saw at the start.",
                 hints=("Think back: of the three cards shown at the start, one was Fire, and "
                        "it never moved.",
                        "The Fire is at slot 3."),
                 success="Found from memory: it never left its slot."),
        ),
        summary="What you saw is what you can collect: watch every card that is shown.",
        recall=True, recall_of="activate-collect",
    ),
    Lesson(
        "recall-flip-back", "Recall: the card that flipped back", "Activation and Collection",
        COURSE[2].rule,
        Scenario().grid("? ? wi ? / ? wi ? f / ? ? ? ?").seen(2, 5, 7)
        .deck_top("fire", "water"),
        intro="Three cards are shown to you once. Collect the pair among them, then remember "
              "where the rest went.",
        steps=(
            Step("Collect the two Wind cards you saw.",
                 goal=collected("wind"), allow=[*_activate(2, 5), _DEACTIVATE],
                 solution=(*_activate(2, 5), EndPhase()),
                 wrong={Activate(7): "That is the Fire you saw; alone it would flip back. "
                                     "Collect the Wind pair."},
                 otherwise="Activate the two Wind cards you saw, then end the phase.",
                 hints=("Think back to the cards shown at the start: two were Wind.",
                        "The Wind cards are at slots 2 and 5."),
                 success="The Wind pair went to your Study. Then the two empty slots were "
                         "refilled from the deck (watch: each new card is shown once) and the "
                         "turn ended.",
                 then=(Refill(2), Refill(5), EndPhase(), EndPhase())),
            Step("Turn 2. Collect the Fire pair: the Fire you saw at the start, and the Fire "
                 "the deck brought in the refill.",
                 goal=collected("fire"), allow=[*_activate(2, 7), _DEACTIVATE],
                 solution=(*_activate(2, 7), EndPhase()),
                 otherwise="Activate the two Fire cards you saw, then end the phase.",
                 hints=("Think back: one Fire was shown at the start and never moved; the "
                        "other came from the deck in the refill.",
                        "The Fire cards are at slots 2 and 7."),
                 success="Collected: the card that flipped back stayed where you saw it."),
        ),
        summary="Uncollected cards stay where you saw them, and every refill shows its card "
                "once: both are worth remembering.",
        recall=True, recall_of="flip-back",
    ),
    Lesson(
        "recall-refill", "Recall: refill and bind", "Refill",
        COURSE[[lsn.id for lsn in COURSE].index("cleanup-refill")].rule,
        Scenario().grid("f ? ? ? / ? f ? ? / ? ? ? ?").seen(0, 5).deck_top("water", "earth"),
        intro="Two cards are shown to you once. Collect them, refill, and remember where the "
              "new cards went.",
        steps=(
            Step("Collect the Fire pair you saw.",
                 goal=collected("fire"), allow=[*_activate(0, 5), _DEACTIVATE],
                 solution=(*_activate(0, 5), EndPhase()),
                 otherwise="Activate the two Fire cards you saw, then end the phase.",
                 hints=("Think back to the two cards shown at the start.",
                        "The Fire cards are at slots 0 and 5."),
                 success="Both left the grid: two empty slots to refill."),
            Step("Refill the two empty slots from the face-up deck (Water first, then Earth).",
                 goal=in_phase("binding"), allow=[_REFILL],
                 solution=(Refill(5), Refill(0)),
                 hints=("Click an empty slot for each card.",),
                 success="Each new card was shown once as it landed."),
            Step("Pay for a Fire token from the supply and place it on the Earth you just "
                 "refilled.",
                 accept={"type": "place_token", "element": "fire", "source": "supply"},
                 goal=token_on("fire", "earth"),
                 solution=PlaceToken(0, "fire", "supply"),
                 otherwise="This step asks for a Fire token paid from the supply.",
                 hints=("Think back to the refill: the Earth came second.",
                        "The Earth went into the slot you refilled second."),
                 success="Bound, from memory."),
        ),
        summary="A refill shows its card once: remember where each one went.",
        recall=True, recall_of="cleanup-refill",
    ),
)



def _rule(lesson_id: str) -> str:
    return next(lsn.rule for lsn in COURSE if lsn.id == lesson_id)


# The recall versions of the other lessons that ask for remembered cards (the rules' lessons
# above in course order); a slot is named only for a card never shown (a peek's target).
RECALL += (
    Lesson(
        "recall-deactivate", "Recall: the lone card, and a pass", "Activation and Collection",
        _rule("deactivate-pass"),
        Scenario().grid("e ? ? ? / e ? ? ? / ? wa ? e").active(0, 4, 9).seen(11)
        .deck_top("fire", "wind", "earth"),
        intro="One inert card is shown to you once; three are activated. Spend your "
              "activations on what you remember.",
        steps=(
            Step("All 3 activations are used, and the Water has no partner. Take it back, "
                 "and activate the Earth card you saw at the start instead.",
                 goal=activated(0, 4, 11), allow=[Deactivate(9), Activate(11)],
                 solution=(Deactivate(9), Activate(11)),
                 wrong={Deactivate(s): "Keep your Earth cards activated: the Water is the one "
                                       "without a partner." for s in (0, 4)},
                 otherwise="Deactivate the Water, then activate the Earth you saw.",
                 hints=("Think back to the one inert card shown at the start: it was Earth. "
                        "Deactivate the Water first to free an activation.",
                        "Deactivate slot 9, then activate slot 11."),
                 success="Three Earth cards are activated."),
            Step("Collect the three Earth cards.",
                 accept=EndPhase(), goal=collected("earth", count=3),
                 wrong=[(_DEACTIVATE, "Keep all three Earth cards activated.")],
                 hints=("End the phase.",),
                 success="Three Earth collected. The empty slots were refilled from the deck "
                         "(each new card was shown once as it landed) and your turn ended.",
                 then=(Refill(0), Refill(4), Refill(11), EndPhase())),
            Step("Turn 2. Think of every card you know on the grid: if no two are alike, "
                 "pass (end Phase 2 without activating anything).",
                 accept=EndPhase(),
                 wrong={Activate(s): "That card would be alone and flip back: no two cards "
                                     "you know are alike. Pass instead." for s in (0, 4, 9, 11)},
                 hints=("Think back to the refill (a Fire, a Wind, an Earth) and to the Water "
                        "you took back.",
                        "You know Fire at slot 0, Wind at 4, Water at 9 and Earth at 11: no "
                        "two alike."),
                 success="You passed: nothing collected, nothing lost."),
        ),
        summary="A lone card is a wasted activation; knowing the grid tells you when to pass.",
        recall=True, recall_of="deactivate-pass",
    ),
    Lesson(
        "recall-binding", "Recall: the card you may activate", "Binding Spell Tokens",
        _rule("binding"),
        Scenario(players=["You", "Rival"]).grid("? ? ? ? / e ? ? ? / ? e e ?")
        .seen(4, 9, 10).tokens(4, wind=2, fire=1).tokens(9, wind=3)
        .study(0, wind=2, fire=1),
        intro="Three cards are shown to you once. Tokens stay in sight; the cards under them "
              "are yours to remember.",
        steps=(
            Step("Your Study holds 2 Wind and 1 Fire. Activate the card you saw under 2 Wind "
                 "tokens and 1 Fire token.",
                 accept=Activate(4),
                 hints=("Each token of an element needs one card of that element in your "
                        "Study: 2 Wind and 1 Fire are enough.",
                        "It is at slot 4."),
                 success="Allowed: your Study matches every token on it."),
            Step("Activate another card you saw of the same element, one your Study lets you "
                 "activate.",
                 accept=Activate(10),
                 hints=("Think back to the three cards shown at the start: all were Earth. A "
                        "card under 3 Wind tokens needs 3 Wind in your Study.",
                        "The token-free one is at slot 10."),
                 success="A card without tokens: anyone may activate it."),
            Step("Collect the Earth pair.",
                 accept=EndPhase(), goal=collected("earth"),
                 hints=("End the phase.",),
                 success="Collected, from memory: the tokens told you who may activate, your "
                         "memory told you what lay under them."),
        ),
        summary="Tokens are in plain sight; what lies under them is what you remember.",
        recall=True, recall_of="binding",
    ),
    Lesson(
        "recall-token-return", "Recall: tokens on the refill", "Token Return",
        _rule("token-return"),
        Scenario().grid("? wi ? ? / ? ? wi ? / ? ? ? ?").seen(1, 6)
        .tokens(1, fire=1).tokens(6, water=1).study(0, fire=1, water=1).markers(0, fire=1)
        .deck_top("earth", "fire"),
        intro="Two cards are shown to you once. Collect them, then put the freed tokens to "
              "work on the cards the refill brings.",
        steps=(
            Step("Collect the Wind pair you saw (each carries a token your Study allows).",
                 goal=collected("wind"), allow=[*_activate(1, 6), _DEACTIVATE],
                 solution=(*_activate(1, 6), EndPhase()),
                 otherwise="Activate the two Wind cards you saw, then end the phase.",
                 hints=("Think back to the two cards shown at the start: both were Wind.",
                        "The Wind cards are at slots 1 and 6."),
                 success="The Fire token went onto your Spent Fire marker; the Water token, "
                         "with no Spent Water marker to claim it, went to the Token Pool. Then "
                         "the deck refilled the two slots from its face-up top (watch: each new "
                         "card is shown once).",
                 then=(Refill(1), Refill(6))),
            Step("Place the Fire token from your Spent Fire marker, for free, on the Earth "
                 "the refill brought in.",
                 accept={"type": "place_token", "element": "fire", "source": "marker"},
                 goal=token_on("fire", "earth"),
                 solution=PlaceToken(1, "fire", "marker"),
                 otherwise="This step asks for the Fire token on your Spent Fire marker, "
                           "placed on the refilled Earth.",
                 hints=("Think back to the refill: the Earth came first.",
                        "The Earth went into slot 1."),
                 success="Bound, from memory."),
            Step("Pay your Water card for a Water token from the supply (that makes a Spent "
                 "Water marker) and place it on the Fire the refill brought in.",
                 accept={"type": "place_token", "element": "water", "source": "supply"},
                 goal=token_on("water", "fire"),
                 solution=PlaceToken(6, "water", "supply"),
                 otherwise="This step asks for a Water token paid from the supply, placed on "
                           "the refilled Fire.",
                 hints=("Think back to the refill: the Fire came second.",
                        "The Fire went into slot 6."),
                 success="A Spent Water marker, and the refilled Fire bound."),
        ),
        summary="Freed tokens go to your matching marker or the Pool; refilled cards are "
                "shown once, so bind them while you remember.",
        recall=True, recall_of="token-return",
    ),
    Lesson(
        "recall-minor-powers", "Recall: Whisper and Spark", "Powers",
        _rule("minor-powers"),
        Scenario().phase("abilities").grid("? wa ? e / ? ? e ? / ? ? wa ?").seen(1, 3, 10)
        .study(0, wind=2, fire=2),
        intro="Three cards are shown to you once; a peek shows you one more. Then collect "
              "two pairs from memory.",
        steps=(
            Step("Use Whisper (2 Wind) to peek at slot 6, a card you have never seen.",
                 accept=UsePower("wind", "minor", (6,)),
                 wrong=[({"type": "use_power", "element": "wind", "tier": "minor"},
                         "This lesson peeks at slot 6, which you have never seen."),
                        ({"type": "use_power", "element": "fire"},
                         "Spark comes next; first peek at slot 6 with Whisper."),
                        (EndPhase(), "Ending Phase 1 now wastes both of your powers.")],
                 hints=("Use the Wind minor power (Whisper) with slot 6 as its target.",),
                 success="Only you saw it, once."),
            Step("Use Spark (2 Fire): +1 activation this turn.",
                 accept=UsePower("fire", "minor"),
                 wrong={EndPhase(): "Without Spark you have only 3 activations; you will want "
                                    "4."},
                 hints=("Use the Fire minor power (Spark); it takes no target.",),
                 success="4 activations this turn. Phase 2 begins."),
            Step("Collect the Water pair you saw at the start, and the Earth pair: the Earth "
                 "you saw at the start and the one you peeked at.",
                 goal=collected("earth", "water"),
                 allow=[*_activate(1, 3, 6, 10), _DEACTIVATE],
                 solution=(*_activate(1, 10, 3, 6), EndPhase()),
                 otherwise="Activate both pairs you know, then end the phase.",
                 hints=("Think back: the start showed two Water and one Earth; Whisper showed "
                        "you the second Earth.",
                        "Water at slots 1 and 10, Earth at slots 3 and 6."),
                 success="Two pairs in one turn, from what you saw and what you peeked at."),
        ),
        summary="A peek is shown once, to you alone: what you learn is worth what you remember.",
        recall=True, recall_of="minor-powers",
    ),
    Lesson(
        "recall-ripple", "Recall: follow the swap", "Powers",
        _rule("unbind-ripple"),
        Scenario().phase("abilities").grid("? ? f ? / ? ? ? f / ? ? ? ?").seen(2, 7)
        .tokens(2, wind=2).study(0, water=2, earth=2),
        intro="Two cards are shown to you once. Powers move them: your memory has to follow.",
        steps=(
            Step("One of the cards you saw is bound by 2 Wind tokens, and your Study holds no "
                 "Wind. Use Unbind (2 Earth) on it.",
                 accept=UsePower("earth", "minor", (2,)),
                 wrong=[(EndPhase(), "That card stays bound unless you Unbind it first.")],
                 hints=("The card under the 2 Wind tokens is the one to Unbind.",),
                 success="The Wind tokens went to the Token Pool."),
            Step("Use Ripple (2 Water) to swap the card you just unbound with slot 5.",
                 accept=UsePower("water", "minor", (2, 5)),
                 wrong=[({"type": "use_power", "element": "water"},
                         "This lesson swaps the unbound card with slot 5.")],
                 hints=("Use the Water minor power (Ripple) on slots 2 and 5.",),
                 success="Swapped: the two cards traded places."),
            Step("Collect the Fire pair you saw: one never moved, the other moved with the "
                 "swap.",
                 goal=collected("fire"), allow=[*_activate(5, 7), _DEACTIVATE],
                 solution=(*_activate(5, 7), EndPhase()),
                 otherwise="Activate the two Fire cards you know, then end the phase.",
                 hints=("Think back: both cards shown at the start were Fire; the unbound "
                        "one went where the Ripple sent it.",
                        "The Fire cards are at slots 5 and 7."),
                 success="Collected, because you followed the swap."),
        ),
        summary="Ripple moves cards, and what you know moves with them.",
        recall=True, recall_of="unbind-ripple",
    ),
    Lesson(
        "recall-sanctuary", "Recall: Sanctuary and Wildfire", "Powers",
        _rule("sanctuary-wildfire"),
        Scenario().phase("abilities").grid("? ? ? ? / wa ? ? ? / ? wi ? ?").seen(4, 9)
        .tokens(4, wind=3).study(0, fire=5, earth=5)
        .effects(powers_used=["fire:minor", "earth:minor"]),
        intro="Two cards are shown to you once. Two Major powers let you collect them both.",
        steps=(
            Step("Use Sanctuary (5 Earth): Binding tokens do not stop you this turn.",
                 accept=UsePower("earth", "major"),
                 wrong={EndPhase(): "Ending Phase 1 now wastes Sanctuary and Wildfire."},
                 hints=("Use the Earth major power (Sanctuary).",),
                 success="This turn no token can stop you."),
            Step("Use Wildfire (5 Fire): every activated card is collected this turn, even a "
                 "lone one.",
                 accept=UsePower("fire", "major"),
                 wrong={EndPhase(): "Without Wildfire a lone card only flips back."},
                 hints=("Use the Fire major power (Wildfire).",),
                 success="The collect threshold is 1 this turn. Phase 2 begins."),
            Step("Collect the Water and the Wind you saw at the start.",
                 goal=collected("water", "wind"), allow=[*_activate(4, 9), _DEACTIVATE],
                 solution=(*_activate(4, 9), EndPhase()),
                 otherwise="Activate the Water and the Wind you saw, then end the phase.",
                 hints=("Think back to the two cards shown at the start; Sanctuary lets you "
                        "activate a card under tokens.",
                        "Water at slot 4, Wind at slot 9."),
                 success="A bound card and a lone card, both collected from memory."),
        ),
        summary="Sanctuary ignores tokens; Wildfire collects every activated card you know.",
        recall=True, recall_of="sanctuary-wildfire",
    ),
    Lesson(
        "recall-gale-tide", "Recall: Gale and Tide", "Powers",
        _rule("gale-tide"),
        Scenario().phase("abilities").grid("f ? ? f / ? wi ? e / ? ? ? wa").seen(0, 5)
        .deck_top("fire").study(0, water=5, wind=5)
        .effects(powers_used=["water:minor", "wind:minor"]),
        intro="Two cards are shown to you once. Peek at three more, trade one with the deck, "
              "then collect what you know.",
        steps=(
            Step("Use Gale (5 Wind) to peek at slots 3, 7 and 11, which you have never seen.",
                 accept=UsePower("wind", "major", (3, 7, 11)),
                 wrong=[({"type": "use_power", "element": "wind"},
                         "This lesson peeks at slots 3, 7 and 11."),
                        ({"type": "use_power", "element": "water"},
                         "Tide comes next; first peek with Gale.")],
                 hints=("Use the Wind major power (Gale) on slots 3, 7 and 11.",),
                 success="Only you saw them, once each."),
            Step("The deck's top card is Fire. Use Tide (5 Water) to swap the Wind you saw at "
                 "the start for it.",
                 accept=UsePower("water", "major", (5,)),
                 wrong=[({"type": "use_power", "element": "water"},
                         "That is not the Wind you saw at the start.")],
                 hints=("Think back to the two cards shown at the start: one was Fire, one "
                        "Wind.",
                        "The Wind is at slot 5."),
                 success="The Fire came onto the grid where the Wind was; the Wind is on top "
                         "of the deck."),
            Step("Collect every Fire card you know: three of them.",
                 goal=collected("fire", count=3), allow=[*_activate(0, 3, 5), _DEACTIVATE],
                 solution=(*_activate(0, 3, 5), EndPhase()),
                 otherwise="Activate the three Fire cards you know, then end the phase.",
                 hints=("Think back: one Fire was shown at the start, Gale showed you another, "
                        "and Tide brought the third.",
                        "The Fire cards are at slots 0, 3 and 5."),
                 success="Three Fire, found by peeking, by reading the deck, and by memory."),
        ),
        summary="Gale peeks at up to three cards, Tide trades with the face-up deck: both pay "
                "only if you remember.",
        recall=True, recall_of="gale-tide",
    ),
    Lesson(
        "recall-game-end", "Recall: the last collection", "Game End",
        _rule("game-end"),
        Scenario(players=["You", "Rival"],
                 rules=Rules.default().replace(cards_per_element=3, grid_rows=2, grid_cols=2))
        .grid("e e / wa e").seen(0, 1, 2, 3).deck("water")
        .study(0, fire=1, wind=1).study(1, fire=2, wind=2, water=1),
        intro="A small table (a 2x2 grid, one card left in the deck); the grid is shown to "
              "you once.",
        steps=(
            Step("Your Rival has 5 cards in their Study, you have 2. Activate the three Earth "
                 "cards you saw.",
                 goal=activated(0, 1, 3), allow=[*_activate(0, 1, 3), _DEACTIVATE],
                 solution=_activate(0, 1, 3),
                 wrong={Activate(2): "That is the Water you saw: alone it would flip back. "
                                     "You want the Earth cards."},
                 hints=("Think back to the four cards shown at the start: three were Earth.",
                        "The Earth cards are at slots 0, 1 and 3."),
                 success="Three Earth cards are activated."),
            Step("Collect them: three Earth cards make your score 5.",
                 accept=EndPhase(), goal=collected("earth", count=3),
                 wrong=[(_DEACTIVATE, "Two Earth cards would leave you at 4, behind your "
                                     "Rival's 5. Keep all three.")],
                 hints=("End the phase.",),
                 success="5 to 5. Three slots are empty and one card is left in the deck."),
            Step("Refill an empty slot with the deck's last card.",
                 accept=_REFILL, goal=game_over(winners=[0, 1]), solution=Refill(0),
                 hints=("Click an empty slot.",),
                 success="The deck is empty and a card would still have to be refilled: the "
                         "game ends, 5 to 5. Ties share the victory."),
        ),
        summary="The game ends when a refill meets an empty deck; remember the grid to the "
                "last card.",
        recall=True, recall_of="game-end",
    ),
)

COURSE = COURSE + RECALL

_BY_ID = {lesson.id: lesson for lesson in COURSE}


def lesson(lesson_id: str) -> Lesson:
    """The built-in lesson with this id."""
    found = _BY_ID.get(lesson_id)
    if found is None:
        raise ValueError(f"no lesson {quote(lesson_id)}; lessons are {names(_BY_ID)} "
                         f"(course() lists all {len(_BY_ID)})")
    return found


def course() -> list[dict[str, Any]]:
    """The course's table of contents, JSON-safe: id, title, section, rule and step count."""
    return [{"id": lsn.id, "title": lsn.title, "section": lsn.section, "rule": lsn.rule,
             "steps": len(lsn.steps)} for lsn in COURSE]


class Progress:
    """The lessons finished in this Python process: a notebook's kernel, so that every lesson
    widget of the notebook counts a lesson finished in any of them (one widget per lesson,
    and a course widget with the navigator).

    Watchers are bound methods, held weakly: a widget that is gone stops being called.

    >>> record = Progress()
    >>> seen = []
    >>> class Menu:
    ...     def changed(self) -> None:
    ...         seen.append(sorted(record.finished))
    >>> menu = Menu()
    >>> record.watch(menu.changed)
    >>> record.finish("flip-back", mistakes=2)
    >>> record.finish("flip-back", mistakes=3)   # no better: nothing to tell
    >>> "flip-back" in record, record.finished, seen
    (True, {'flip-back': 2}, [['flip-back']])
    """

    def __init__(self) -> None:
        self._finished: dict[str, int] = {}  # lesson id -> fewest mistakes in a finished run
        self._watchers: list[weakref.WeakMethod[Callable[[], None]]] = []

    @property
    def finished(self) -> dict[str, int]:
        """Each finished lesson's id with the fewest mistakes it was finished with."""
        return dict(self._finished)

    def __contains__(self, lesson_id: object) -> bool:
        return lesson_id in self._finished

    def watch(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (a bound method) whenever a lesson is newly (or better) finished."""
        self._watchers.append(weakref.WeakMethod(callback))

    def finish(self, lesson_id: str, mistakes: int = 0) -> None:
        """Record that ``lesson_id`` was finished; tell the watchers when that is news."""
        best = self._finished.get(lesson_id)
        if best is not None and best <= mistakes:
            return
        self._finished[lesson_id] = mistakes
        alive = []
        for ref in self._watchers:
            callback = ref()
            if callback is not None:
                alive.append(ref)
                callback()
        self._watchers = alive

    def clear(self) -> None:
        """Forget every finished lesson (the watchers stay)."""
        self._finished.clear()


#: The kernel's record of finished lessons, shared by every lesson widget in it.
PROGRESS = Progress()
