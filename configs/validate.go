package configs

import "github.com/flitsim/flitsim/network"

// validate is network.Validate (a variable so tests can stub it).
var validate = network.Validate
