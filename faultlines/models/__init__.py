"""Course models: small, deterministic functions and scenarios the lessons, their numbers modules,
widgets and tests share. They run miniray or plain arithmetic; none of them is Ray semantics."""
