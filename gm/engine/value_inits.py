"""The `__init__` templates of `@value` classes (gm.engine.values) for up to 12 fields, written
out so that they are compiled with the package: compiling one when a class is made costs more
than the rest of making the class. `init_<n>` stores its n parameters in the instance dict;
gm.engine.values renames the parameters (and the keys, the same strings) to a class's fields.
"""

# No `from __future__ import annotations` here: it would mark the code objects.
from typing import Any


def init_0(self: Any) -> None:
    _value_d = self.__dict__


def init_1(self: Any, _value_p0: Any) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0


def init_2(self: Any, _value_p0: Any, _value_p1: Any) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0
    _value_d["_value_p1"] = _value_p1


def init_3(self: Any, _value_p0: Any, _value_p1: Any, _value_p2: Any) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0
    _value_d["_value_p1"] = _value_p1
    _value_d["_value_p2"] = _value_p2


def init_4(self: Any, _value_p0: Any, _value_p1: Any, _value_p2: Any, _value_p3: Any) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0
    _value_d["_value_p1"] = _value_p1
    _value_d["_value_p2"] = _value_p2
    _value_d["_value_p3"] = _value_p3


def init_5(
    self: Any,
    _value_p0: Any,
    _value_p1: Any,
    _value_p2: Any,
    _value_p3: Any,
    _value_p4: Any,
) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0
    _value_d["_value_p1"] = _value_p1
    _value_d["_value_p2"] = _value_p2
    _value_d["_value_p3"] = _value_p3
    _value_d["_value_p4"] = _value_p4


def init_6(
    self: Any,
    _value_p0: Any,
    _value_p1: Any,
    _value_p2: Any,
    _value_p3: Any,
    _value_p4: Any,
    _value_p5: Any,
) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0
    _value_d["_value_p1"] = _value_p1
    _value_d["_value_p2"] = _value_p2
    _value_d["_value_p3"] = _value_p3
    _value_d["_value_p4"] = _value_p4
    _value_d["_value_p5"] = _value_p5


def init_7(
    self: Any,
    _value_p0: Any,
    _value_p1: Any,
    _value_p2: Any,
    _value_p3: Any,
    _value_p4: Any,
    _value_p5: Any,
    _value_p6: Any,
) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0
    _value_d["_value_p1"] = _value_p1
    _value_d["_value_p2"] = _value_p2
    _value_d["_value_p3"] = _value_p3
    _value_d["_value_p4"] = _value_p4
    _value_d["_value_p5"] = _value_p5
    _value_d["_value_p6"] = _value_p6


def init_8(
    self: Any,
    _value_p0: Any,
    _value_p1: Any,
    _value_p2: Any,
    _value_p3: Any,
    _value_p4: Any,
    _value_p5: Any,
    _value_p6: Any,
    _value_p7: Any,
) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0
    _value_d["_value_p1"] = _value_p1
    _value_d["_value_p2"] = _value_p2
    _value_d["_value_p3"] = _value_p3
    _value_d["_value_p4"] = _value_p4
    _value_d["_value_p5"] = _value_p5
    _value_d["_value_p6"] = _value_p6
    _value_d["_value_p7"] = _value_p7


def init_9(
    self: Any,
    _value_p0: Any,
    _value_p1: Any,
    _value_p2: Any,
    _value_p3: Any,
    _value_p4: Any,
    _value_p5: Any,
    _value_p6: Any,
    _value_p7: Any,
    _value_p8: Any,
) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0
    _value_d["_value_p1"] = _value_p1
    _value_d["_value_p2"] = _value_p2
    _value_d["_value_p3"] = _value_p3
    _value_d["_value_p4"] = _value_p4
    _value_d["_value_p5"] = _value_p5
    _value_d["_value_p6"] = _value_p6
    _value_d["_value_p7"] = _value_p7
    _value_d["_value_p8"] = _value_p8


def init_10(
    self: Any,
    _value_p0: Any,
    _value_p1: Any,
    _value_p2: Any,
    _value_p3: Any,
    _value_p4: Any,
    _value_p5: Any,
    _value_p6: Any,
    _value_p7: Any,
    _value_p8: Any,
    _value_p9: Any,
) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0
    _value_d["_value_p1"] = _value_p1
    _value_d["_value_p2"] = _value_p2
    _value_d["_value_p3"] = _value_p3
    _value_d["_value_p4"] = _value_p4
    _value_d["_value_p5"] = _value_p5
    _value_d["_value_p6"] = _value_p6
    _value_d["_value_p7"] = _value_p7
    _value_d["_value_p8"] = _value_p8
    _value_d["_value_p9"] = _value_p9


def init_11(
    self: Any,
    _value_p0: Any,
    _value_p1: Any,
    _value_p2: Any,
    _value_p3: Any,
    _value_p4: Any,
    _value_p5: Any,
    _value_p6: Any,
    _value_p7: Any,
    _value_p8: Any,
    _value_p9: Any,
    _value_p10: Any,
) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0
    _value_d["_value_p1"] = _value_p1
    _value_d["_value_p2"] = _value_p2
    _value_d["_value_p3"] = _value_p3
    _value_d["_value_p4"] = _value_p4
    _value_d["_value_p5"] = _value_p5
    _value_d["_value_p6"] = _value_p6
    _value_d["_value_p7"] = _value_p7
    _value_d["_value_p8"] = _value_p8
    _value_d["_value_p9"] = _value_p9
    _value_d["_value_p10"] = _value_p10


def init_12(
    self: Any,
    _value_p0: Any,
    _value_p1: Any,
    _value_p2: Any,
    _value_p3: Any,
    _value_p4: Any,
    _value_p5: Any,
    _value_p6: Any,
    _value_p7: Any,
    _value_p8: Any,
    _value_p9: Any,
    _value_p10: Any,
    _value_p11: Any,
) -> None:
    _value_d = self.__dict__
    _value_d["_value_p0"] = _value_p0
    _value_d["_value_p1"] = _value_p1
    _value_d["_value_p2"] = _value_p2
    _value_d["_value_p3"] = _value_p3
    _value_d["_value_p4"] = _value_p4
    _value_d["_value_p5"] = _value_p5
    _value_d["_value_p6"] = _value_p6
    _value_d["_value_p7"] = _value_p7
    _value_d["_value_p8"] = _value_p8
    _value_d["_value_p9"] = _value_p9
    _value_d["_value_p10"] = _value_p10
    _value_d["_value_p11"] = _value_p11
