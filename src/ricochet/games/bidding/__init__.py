"""The bidding round that Ricochet Robots and Ricochet Pyramids share: :mod:`.round`
(bids, never-raise, the timer, demonstration order and tie-breaks, demonstrations:
:class:`.round.BiddingGame`) and :mod:`.bot` (bots that bid from the solver's answer and
demonstrate).  Its part of the web shell is ``ricochet/web/bidding.js``."""
