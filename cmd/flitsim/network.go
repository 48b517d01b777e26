package main

import "github.com/flitsim/flitsim/network"

// runNetwork is network.Run (a variable so tests can stub it).
var runNetwork = network.Run
