# ns-2's RNG self-test (`$rng test`, as test-suite-rng runs it) writes
# temp.rands; its seeding also moves the package seed, so RNGs made
# afterwards draw other numbers.
set r [new RNG]
$r test
puts "same rng: [$r next-random]"
set r2 [new RNG]
puts "new rng: [$r2 next-random] [$r2 next-random]"
puts "default: [ns-random]"
