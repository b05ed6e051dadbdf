package google

// Decode is the engine's decoding, for the fuzz target.
var Decode = engine("0123456789abcdef0").Decode
