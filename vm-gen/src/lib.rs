//! vm-gen: expands `handlers.def` into Tusk's opcode list and specialized handlers.
