// The module root of the oracle. The real requirements live per release in
// releases/<release>.mod (built with `go build -modfile=releases/<release>.mod`).
module schedlab.dev/oracle

go 1.24.0
