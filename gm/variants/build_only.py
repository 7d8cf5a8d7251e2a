"""Build sites for one kind of unit (a variant file's `build_only`, as DPjudge map files and
webDiplomacy variants mark some home centres for fleets or for armies only). The variant
carries them as data (`Variant.build_only`); the game flow refuses a build of the other kind
there before the adjustments are adjudicated (the build left unused is waived, DATC 4.D.4),
and order taking refuses it when it arrives."""

from __future__ import annotations

KINDS = ("armies", "fleets")  # what a `build_only` site builds
