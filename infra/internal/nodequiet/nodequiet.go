// Package nodequiet quiets jsii's Node end-of-life banner: jsii (the engine
// under the Go CDK) runs Node and, on Node 20, prints a large warning on
// every start. Node 20 works; the banner only buries real output.
//
// jsii captures the environment when the CDK packages initialise, so the
// variable must be set before that. Go initialises the packages that are
// ready in import-path order, and aiwork/... sorts before github.com/...,
// so a blank import of this package (which needs only os) runs first. An
// operator's own setting wins.
package nodequiet

import "os"

// Variable is jsii's switch; its value lists the Node majors to accept.
const Variable = "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION"

func init() {
	if os.Getenv(Variable) == "" {
		os.Setenv(Variable, "18,20")
	}
}
