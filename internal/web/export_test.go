package web

// NodeModules is nodeModules, for the tests of the package web_test.
var NodeModules = nodeModules
