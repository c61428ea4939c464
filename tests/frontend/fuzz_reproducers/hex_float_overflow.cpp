// Fuzz find: a hex float literal too large for a double raised OverflowError in parser._parse_float
// (ascendc-check: ASC000 internal error). Expected: no exception, at most an ordinary diagnostic.
float x = 0x1p1024;
