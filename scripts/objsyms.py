"""objsyms.py — the external symbols of an object file, for check-layers.py and check-objects.py."""
import subprocess


def object_symbols(path):
    """(defined, undefined) external symbols of one object, read with `nm -P`"""
    out = subprocess.run(['nm', '-P', path], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind in ('U', 'w', 'v'):
            undefined.add(name)
        elif kind.isupper():
            defined.add(name)
    return defined, undefined
