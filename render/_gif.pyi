from typing_extensions import Buffer

def frame(
    current: Buffer, previous: Buffer | None, width: int, height: int, transparent: int, /
) -> tuple[int, int, int, int, bytes] | None: ...
