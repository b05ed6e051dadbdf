package marginalia

// Decode is the engine's decoding, for the fuzz target.
var Decode = engine.Decode
