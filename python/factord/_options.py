"""Option names, derived from the proto descriptors.

Keyword options are the fields of factord.v1.FactorOptions and SolveOptions
under their proto names (``ordering``, ``fill_level``, ``krylov``, ...), so
that no table here has to follow solver.proto by hand. Enum-valued ones take
the value's name without the enum's prefix, lower-cased, as in the C++
client (client/enum_names.h): METHOD_BLOCK_JACOBI is ``"block_jacobi"``,
TRIANGULAR_SOLVE_EXACT ``"exact"``; ``""`` or None is value 0 (the server's
default) and ``"bk"`` is also accepted for ``"bunch_kaufman"``. A name or
option that does not exist is refused before anything is sent:
factord.Error with reason INVALID_OPTION and a BadRequest naming the field.
"""

from __future__ import annotations

import numbers
import re
from typing import Any, List, Mapping

from google.protobuf.descriptor import EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message

from ._errors import client_error

_ALIASES = {"Pivoting": {"bk": "bunch_kaufman"}}

_INTEGER_TYPES = {
    FieldDescriptor.TYPE_INT32,
    FieldDescriptor.TYPE_INT64,
    FieldDescriptor.TYPE_UINT32,
    FieldDescriptor.TYPE_UINT64,
    FieldDescriptor.TYPE_SINT32,
    FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_FIXED32,
    FieldDescriptor.TYPE_FIXED64,
    FieldDescriptor.TYPE_SFIXED32,
    FieldDescriptor.TYPE_SFIXED64,
}
_REAL_TYPES = {FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT}


def _prefix(enum: EnumDescriptor) -> str:
    # TriangularSolve -> "TRIANGULAR_SOLVE_".
    return re.sub(r"(?<!^)(?=[A-Z])", "_", enum.name).upper() + "_"


def value_name(enum: EnumDescriptor, number: int) -> str:
    """The derived name of value ``number`` of ``enum``; ``"unknown(N)"`` for
    a number this package's descriptor does not have (a newer server)."""
    value = enum.values_by_number.get(number)
    if value is None:
        return f"unknown({number})"
    prefix = _prefix(enum)
    name = value.name[len(prefix):] if value.name.startswith(prefix) else value.name
    return name.lower()


def value_names(enum: EnumDescriptor) -> List[str]:
    """The derived names of every value of ``enum``, in proto order."""
    return [value_name(enum, v.number) for v in enum.values]


def parse_value(enum: EnumDescriptor, name: Any, field: str) -> int:
    """The number of the value of ``enum`` called ``name`` (a derived name,
    an alias, or "" / None for 0); else INVALID_OPTION on ``field``."""
    if name is None or name == "":
        return 0
    if isinstance(name, str):
        key = name.lower()
        key = _ALIASES.get(enum.name, {}).get(key, key)
        for value in enum.values:
            if value_name(enum, value.number) == key:
                return value.number
    raise client_error(
        "INVALID_OPTION",
        f"{field}: unknown name {name!r}; one of: "
        + ", ".join(value_names(enum)),
        field,
    )


def set_fields(
    message: Message, options: Mapping[str, Any], field_prefix: str
) -> None:
    """Sets the fields of ``message`` named by ``options`` (proto field names;
    None leaves a field unset: the server's default). Enum fields take
    derived names. INVALID_OPTION for a name the message does not have or a
    value of the wrong kind; ``field_prefix`` + name is the field reported."""
    fields = message.DESCRIPTOR.fields_by_name
    for key, value in options.items():
        field = field_prefix + key
        descriptor = fields.get(key)
        if descriptor is None:
            raise client_error(
                "INVALID_OPTION",
                f"unknown option {key!r}; the options are: "
                + ", ".join(sorted(fields)),
                field,
            )
        if value is None:
            continue
        if descriptor.enum_type is not None:
            setattr(message, key, parse_value(descriptor.enum_type, value, field))
            continue
        kind = descriptor.type
        ok = False
        if kind == FieldDescriptor.TYPE_BOOL:
            ok = isinstance(value, (bool, numbers.Integral)) and value in (0, 1)
            value = bool(value)
        elif kind in _INTEGER_TYPES:
            ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
            value = int(value) if ok else value
        elif kind in _REAL_TYPES:
            ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
            value = float(value) if ok else value
        if ok:
            try:
                setattr(message, key, value)
            except (ValueError, TypeError):  # out of the field's range
                ok = False
        if not ok:
            raise client_error(
                "INVALID_OPTION",
                f"{field}: {value!r} is not a valid "
                f"{_kind_name(descriptor)} value",
                field,
            )


def field_names(message_type: type) -> List[str]:
    """The option names of a message type (its proto field names)."""
    return [f.name for f in message_type.DESCRIPTOR.fields]


def _kind_name(descriptor: FieldDescriptor) -> str:
    if descriptor.type == FieldDescriptor.TYPE_BOOL:
        return "boolean"
    if descriptor.type in _INTEGER_TYPES:
        return "integer"
    return "real"
