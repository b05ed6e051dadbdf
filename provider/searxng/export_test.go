package searxng

// Decode is the engine's decoding, for the fuzz target.
var Decode = engine(Options{}).Decode
