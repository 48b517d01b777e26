package main

import "github.com/flitsim/flitsim/network"

// runNetwork runs a built network as flitsim run does (a variable so tests
// can stub it; progress.go sets it).
var runNetwork func(*network.Network) (*network.Result, error)
