package marginalia

// Decode is the engine's decoding, for the fuzz target.
var Decode = engine(0, 0).Decode
