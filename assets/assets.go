// Package assets holds the files Latch ships inside its binary.
package assets

import _ "embed"

// IconPNG is the app icon, rendered from icon.svg (512×512).
//
//go:embed icon.png
var IconPNG []byte
