package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/latch-app/latch/app"
)

// latchTheme is Latch's theme in one variant (light or dark), whatever
// the desktop prefers.
func latchTheme(v fyne.ThemeVariant) fyne.Theme { return &palette{fixed: true, variant: v} }

// followTheme is Latch's theme in the variant the desktop prefers: Fyne
// passes that variant to Color (FYNE_THEME, or the desktop's colour
// scheme through the xdg-desktop-portal), and the colours are Latch's
// light or dark ones accordingly.
func followTheme() fyne.Theme { return &palette{} }

// themeFor is the theme of a theme setting (app.Prefs.Theme); an unknown
// value follows the desktop.
func themeFor(setting string) fyne.Theme {
	switch setting {
	case app.ThemeLight:
		return latchTheme(theme.VariantLight)
	case app.ThemeDark:
		return latchTheme(theme.VariantDark)
	}
	return followTheme()
}

// palette is Fyne's default theme with the colours that draw text (and
// the backgrounds behind them) chosen so that every text meets WCAG AA
// contrast: 4.5:1 for body and caption text, 3:1 for large text, in both
// variants (theme_test.go computes it for every pair the window draws).
// Fyne draws low-importance labels (captions, hints, the status line,
// notices) in the disabled colour, so that colour is readable text here.
type palette struct {
	fixed   bool // variant is used whatever Color is asked for
	variant fyne.ThemeVariant
}

var _ fyne.Theme = (*palette)(nil)

func (p *palette) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if p.fixed {
		v = p.variant
	}
	if v != theme.VariantLight {
		// Dark, and anything that is no preference at all.
		v = theme.VariantDark
	}
	colors := darkColors
	if v == theme.VariantLight {
		colors = lightColors
	}
	if c, ok := colors[n]; ok {
		return c
	}
	return theme.DefaultTheme().Color(n, v)
}

func (p *palette) Font(s fyne.TextStyle) fyne.Resource     { return theme.DefaultTheme().Font(s) }
func (p *palette) Icon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }
func (p *palette) Size(n fyne.ThemeSizeName) float32       { return theme.DefaultTheme().Size(n) }

func rgb(hex uint32) color.NRGBA {
	return color.NRGBA{R: uint8(hex >> 16), G: uint8(hex >> 8), B: uint8(hex), A: 0xff}
}

func rgba(hex uint32, a uint8) color.NRGBA {
	c := rgb(hex)
	c.A = a
	return c
}

// lightColors and darkColors are the colours Latch sets; the rest are
// Fyne's defaults. The backgrounds are Fyne's; the text colours are
// Fyne's where they were readable and darker (light) or lighter (dark)
// where they were not: Fyne's captions, placeholders, links, and red,
// orange and green text fell below 4.5:1.
var (
	lightColors = map[fyne.ThemeColorName]color.Color{
		theme.ColorNameBackground:          rgb(0xffffff),
		theme.ColorNameInputBackground:     rgb(0xf3f3f3),
		theme.ColorNameButton:              rgb(0xf5f5f5),
		theme.ColorNameDisabledButton:      rgb(0xf5f5f5),
		theme.ColorNameMenuBackground:      rgb(0xf5f5f5),
		theme.ColorNameOverlayBackground:   rgb(0xffffff),
		theme.ColorNameHeaderBackground:    rgb(0xf9f9f9),
		theme.ColorNameForeground:          rgb(0x2e2e2e),
		theme.ColorNameDisabled:            rgb(0x666666),
		theme.ColorNamePlaceHolder:         rgb(0x6b6b6b),
		theme.ColorNamePrimary:             rgb(0x1c5fd1),
		theme.ColorNameHyperlink:           rgb(0x1c5fd1),
		theme.ColorNameForegroundOnPrimary: rgb(0xffffff),
		theme.ColorNameError:               rgb(0xb3261e),
		theme.ColorNameForegroundOnError:   rgb(0xffffff),
		theme.ColorNameWarning:             rgb(0x9c4f00),
		theme.ColorNameForegroundOnWarning: rgb(0xffffff),
		theme.ColorNameSuccess:             rgb(0x1b7a2f),
		theme.ColorNameForegroundOnSuccess: rgb(0xffffff),
		theme.ColorNameInputBorder:         rgb(0xc8c8c8),
		theme.ColorNameFocus:               rgba(0x1c5fd1, 0x2a),
		theme.ColorNameSelection:           rgba(0x1c5fd1, 0x40),
	}
	darkColors = map[fyne.ThemeColorName]color.Color{
		theme.ColorNameBackground:          rgb(0x171718),
		theme.ColorNameInputBackground:     rgb(0x202023),
		theme.ColorNameButton:              rgb(0x28292e),
		theme.ColorNameDisabledButton:      rgb(0x28292e),
		theme.ColorNameMenuBackground:      rgb(0x28292e),
		theme.ColorNameOverlayBackground:   rgb(0x181d25),
		theme.ColorNameHeaderBackground:    rgb(0x1b1b1b),
		theme.ColorNameForeground:          rgb(0xf3f3f3),
		theme.ColorNameDisabled:            rgb(0x9d9da3),
		theme.ColorNamePlaceHolder:         rgb(0xb2b2b2),
		theme.ColorNamePrimary:             rgb(0x7aaeff),
		theme.ColorNameHyperlink:           rgb(0x7aaeff),
		theme.ColorNameForegroundOnPrimary: rgb(0x101012),
		theme.ColorNameError:               rgb(0xff6b61),
		theme.ColorNameForegroundOnError:   rgb(0x101012),
		theme.ColorNameWarning:             rgb(0xffa726),
		theme.ColorNameForegroundOnWarning: rgb(0x101012),
		theme.ColorNameSuccess:             rgb(0x5fd76a),
		theme.ColorNameForegroundOnSuccess: rgb(0x101012),
		theme.ColorNameInputBorder:         rgb(0x46464a),
		theme.ColorNameFocus:               rgba(0x7aaeff, 0x40),
		theme.ColorNameSelection:           rgba(0x7aaeff, 0x50),
	}
)
