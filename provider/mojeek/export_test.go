package mojeek

// Decode is the engine's decoding, for the fuzz target.
var Decode = engine(10).Decode
