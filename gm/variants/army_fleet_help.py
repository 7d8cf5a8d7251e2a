"""The A/F rules as players read them (Abstraction2 rule 3, Deluge II rule 8 adopts them): the
text `HELP Abstraction2` and `HELP Deluge2` end with. The rules are played by gm.engine.army_fleet.
"""

from __future__ import annotations

HELP_TEXT = """\
A/F rules (army/fleet), as this judge reads them:
- Boarding: `A Lon boards F ENG` (or `A Lon embarks on to F ENG`). An army boards a fleet of its
  OWN power in an adjacent sea space; the two become an A/F there. Boarding happens before
  all movement and a legal boarding never fails. A fleet carries one army: two armies
  ordered onto one fleet both stay put.
- An A/F moves, holds, supports and is supported as a single fleet (combat value 1); it may
  support into coastal provinces but never enters one, and it may not Fast Ferry.
- Landing: `A/F ENG disembarks Bre` (or `A/F(ENG) disembarks A(Bre)`, or `A ENG - Bre`, the
  army of the A/F ordered to land). The army lands in a coastal province next to the A/F's
  sea, at the same time as, and independently of, the fleet's own order:
  `A/F(TYS) disembarks A(Tun), F(TYS)-WMS`. The landing is a move of the army
  (strength 1 plus supports) that attacks, bounces, dislodges and cuts supports like any move;
  it never meets a unit head to head (like a convoyed army), and it does not cut a support
  given for an attack on the A/F's own sea. The A/F's fleet may support it:
  `A/F(ENG) disembarks A(ENG)-Bre S by F(ENG)`, or on a line of its own `F ENG S A ENG - Bre`.
  Other units support it as `S A/F ENG - Bre` (or `S A ENG - Bre`).
- If the landing fails the army stays aboard, and the fleet's move fails too (its support does
  not). If the A/F is dislodged, the landing still happens; the fleet retreats alone.
- In one phase an army may board, the A/F move one sea and the army land next to that sea:
  `A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks Por`; on separate lines the landing is
  `A/F ENG disembarks Por` or `A/F MAO disembarks Por`. Such a landing happens only if the
  A/F's move succeeds, and it may not change whether that move succeeds: if it would, the
  landing fails and the army stays aboard. A landing is judged from the sea the A/F is in
  when movement ends: when the A/F's move fails but the landing province also borders the
  sea it started in, the army still lands (the landing did not need the move).
- Fast Ferry (FF): a convoy is one fleet in one sea next to both ends; convoys through two or
  more fleets are not possible. If the ferried army cannot land, it stays aboard and the fleet
  becomes an A/F (when the fleet is the army's own power; aboard another power's fleet it stays
  where it was, as in the regular rules). An army that stays aboard has left its province.
  If the ferrying fleet is dislodged the ferry is disrupted and the army stays where it was.
  A Fast Ferry by a fleet of the army's own power moves the army also when the army itself
  has no order (`F ENG FF A Lon - Bre` alone).
- Retreats: an A/F retreats as a fleet; retreating to a coastal space it becomes a fleet and its
  army is disbanded. A dislodged army may retreat onto an adjacent fleet (not an A/F) of its
  own power in a sea space, forming an A/F: `A Pic - ENG`, `A Pic boards F ENG` or, as
  the rule says, `A Pic retreats on to F ENG`. An army
  landing from the sea does not keep the units it dislodges from retreating to that sea (as
  for convoys).
- Circular reasoning: when orders depend on each other in a circle that has no single answer,
  all the units involved stand (their orders fail); a circle of moves only (units following
  each other round) moves, as in the regular rules. There is no Szykman rule.
- Supply: an A/F is two units (its army and its fleet) for builds and removals. `Remove A ENG`
  removes only the army of A/F ENG (the fleet stays), `Remove A/F ENG` removes both.
  Removals not ordered (civil disorder) take the units farthest from home first; an A/F
  then goes whole when two or more removals are due, only its army when one is. An A/F is
  never built: build an army or a fleet, and board at sea.
"""
