package score

// The rank buckets of the paper's Tables 3 and 4 (§4.5 "Measures of
// Success"): found first, on the rest of the first page of ten, on the
// following pages up to 100 and up to MaxRank, or not found.
const (
	// BucketFirst holds rank 1, the result a user sees first.
	BucketFirst = "1"
	// BucketPage1 holds ranks 2 to 10, the rest of the first page.
	BucketPage1 = "2-10"
	// BucketTop100 holds ranks 11 to 100.
	BucketTop100 = "11-100"
	// BucketTop1000 holds ranks 101 to MaxRank.
	BucketTop1000 = "101-1000"
	// BucketNotFound holds targets not found within MaxRank results.
	BucketNotFound = ">1000"
)

// bucketNames is BucketNames's list.
var bucketNames = [...]string{BucketFirst, BucketPage1, BucketTop100, BucketTop1000, BucketNotFound}

// BucketNames returns the five bucket names in the order of the paper's
// tables, best first: "1", "2-10", "11-100", "101-1000", ">1000". The slice
// is new on each call; the caller may modify it.
func BucketNames() []string {
	return append([]string(nil), bucketNames[:]...)
}

// Bucket returns the name of the bucket that holds rank (§4.5 "Measures of
// Success", Tables 3 and 4): "1", "2-10", "11-100", "101-1000", or ">1000"
// for a rank above MaxRank or below 1 (0 means not found).
func Bucket(rank int) string {
	switch {
	case rank < 1 || rank > MaxRank:
		return BucketNotFound
	case rank == 1:
		return BucketFirst
	case rank <= 10:
		return BucketPage1
	case rank <= 100:
		return BucketTop100
	default:
		return BucketTop1000
	}
}
