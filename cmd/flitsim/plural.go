package main

import "fmt"

// count writes n and noun, the noun singular for one: "1 packet",
// "3 packets" (the nouns counted here all take -s).
func count[N ~int | ~int32 | ~int64 | ~uint64](n N, noun string) string {
	return countText(fmt.Sprint(n), noun)
}

// countText is count for a number already written ("1", "2.5").
func countText(n, noun string) string {
	if n == "1" || n == "-1" {
		return n + " " + noun
	}
	return n + " " + noun + "s"
}
