package brave

// Decode is the engine's decoding, for the fuzz target.
var Decode = engine.Decode

// Wait is the engine's reading of how long to wait, for its test.
var Wait = engine.Wait
