package relink

// Names the external tests read that the package does not export.
const (
	CutReason     = cutReason
	FusionSupport = fusionSupport
)
