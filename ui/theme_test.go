package ui

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/latch-app/latch/app"
)

// luminance is a colour's relative luminance (WCAG 2.x).
func wcagLuminance(c color.Color) float64 {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(n.R) + 0.7152*lin(n.G) + 0.0722*lin(n.B)
}

// contrast is the WCAG contrast ratio of two opaque colours, 1 to 21.
func wcagContrast(a, b color.Color) float64 {
	la, lb := wcagLuminance(a), wcagLuminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// over is fg drawn over the opaque bg, as the painter blends.
func blendOver(fg, bg color.Color) color.NRGBA {
	f := color.NRGBAModel.Convert(fg).(color.NRGBA)
	b := color.NRGBAModel.Convert(bg).(color.NRGBA)
	a := float64(f.A) / 255
	mix := func(x, y uint8) uint8 { return uint8(math.Round(a*float64(x) + (1-a)*float64(y))) }
	return color.NRGBA{R: mix(f.R, b.R), G: mix(f.G, b.G), B: mix(f.B, b.B), A: 0xff}
}

// surface is a background text is drawn on: a theme colour, or a card's
// tint (the colour at alpha over the window background, as tint makes it).
type surfaceColor struct {
	name  fyne.ThemeColorName
	alpha uint8 // 0: the colour itself
}

func (s surfaceColor) String() string {
	if s.alpha == 0 {
		return string(s.name)
	}
	return fmt.Sprintf("%s tint %d", s.name, s.alpha)
}

func (s surfaceColor) in(th fyne.Theme, v fyne.ThemeVariant) color.NRGBA {
	bg := blendOver(th.Color(theme.ColorNameBackground, v), color.White)
	if s.alpha == 0 {
		return blendOver(th.Color(s.name, v), bg)
	}
	c := color.NRGBAModel.Convert(th.Color(s.name, v)).(color.NRGBA)
	c.A = s.alpha
	return blendOver(c, bg)
}

// textOn is a text colour on the backgrounds the window draws it on.
type textOn struct {
	text  fyne.ThemeColorName
	on    []surfaceColor
	large bool // only large text (3:1 is enough)
	where string
}

var (
	bgPlain    = surfaceColor{name: theme.ColorNameBackground}
	bgInput    = surfaceColor{name: theme.ColorNameInputBackground}
	bgButton   = surfaceColor{name: theme.ColorNameButton}
	bgDisabled = surfaceColor{name: theme.ColorNameDisabledButton}
	bgMenu     = surfaceColor{name: theme.ColorNameMenuBackground}
	bgOverlay  = surfaceColor{name: theme.ColorNameOverlayBackground}
	bgHeader   = surfaceColor{name: theme.ColorNameHeaderBackground}
	bgUser     = surfaceColor{theme.ColorNamePrimary, tintUser}
	bgError    = surfaceColor{theme.ColorNameError, tintError}
	bgDanger   = surfaceColor{theme.ColorNameError, tintDanger}
)

// textPairs is every text colour the window uses, on every background
// it draws that colour on.
var textPairs = []textOn{
	{theme.ColorNameForeground, []surfaceColor{bgPlain, bgInput, bgButton, bgMenu, bgOverlay, bgHeader, bgUser, bgError, bgDanger}, false,
		"body text: answers, labels, entries, buttons, menus, dialogs, cards"},
	{theme.ColorNameDisabled, []surfaceColor{bgPlain, bgInput, bgButton, bgDisabled, bgMenu, bgOverlay, bgHeader, bgUser, bgError}, false,
		"low importance: captions, hints, notices, the turn line, status, footers; disabled controls"},
	{theme.ColorNamePlaceHolder, []surfaceColor{bgInput, bgPlain, bgButton, bgOverlay}, false,
		"placeholders of entries and selectors"},
	{theme.ColorNamePrimary, []surfaceColor{bgPlain, bgInput, bgOverlay, bgUser}, false,
		"high importance text: the prompt card's heading"},
	{theme.ColorNameHyperlink, []surfaceColor{bgPlain, bgInput, bgOverlay, bgUser}, false,
		"links in answers and dialogs"},
	{theme.ColorNameError, []surfaceColor{bgPlain, bgInput, bgOverlay, bgError, bgDanger}, false,
		"danger text: error cards, denials, the red mode bar, failed saves"},
	{theme.ColorNameWarning, []surfaceColor{bgPlain, bgInput, bgOverlay}, false,
		"warning text: the mode banner"},
	{theme.ColorNameSuccess, []surfaceColor{bgPlain, bgInput, bgOverlay}, false,
		"success text: a tool card's done"},
	{theme.ColorNameForegroundOnPrimary, []surfaceColor{{name: theme.ColorNamePrimary}}, false, "Send and other primary buttons"},
	{theme.ColorNameForegroundOnError, []surfaceColor{{name: theme.ColorNameError}}, false, "danger buttons"},
	{theme.ColorNameForegroundOnWarning, []surfaceColor{{name: theme.ColorNameWarning}}, false, "warning buttons (Folder not trusted)"},
	{theme.ColorNameForegroundOnSuccess, []surfaceColor{{name: theme.ColorNameSuccess}}, false, "success buttons"},
}

// lowContrast lists every pair of th in variant v below WCAG AA.
func lowContrast(th fyne.Theme, v fyne.ThemeVariant) []string {
	var bad []string
	for _, p := range textPairs {
		min := 4.5
		if p.large {
			min = 3
		}
		for _, on := range p.on {
			bg := on.in(th, v)
			fg := blendOver(th.Color(p.text, v), bg)
			if r := wcagContrast(fg, bg); r < min {
				bad = append(bad, fmt.Sprintf("%s %v on %s %v: %.2f:1 (want %.1f:1; %s)", p.text, hexOf(fg), on, hexOf(bg), r, min, p.where))
			}
		}
	}
	return bad
}

func hexOf(c color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

var themeVariants = []struct {
	name string
	v    fyne.ThemeVariant
}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}}

// TestThemeContrast: every text colour Latch's theme draws meets WCAG AA
// on every background it is drawn on, in both themeVariants, whichever way the
// variant is chosen (fixed, or the desktop's).
func TestThemeContrast(t *testing.T) {
	test.NewTempApp(t)
	for _, vr := range themeVariants {
		t.Run(vr.name, func(t *testing.T) {
			for _, th := range []fyne.Theme{latchTheme(vr.v), followTheme()} {
				for _, bad := range lowContrast(th, vr.v) {
					t.Error(bad)
				}
			}
			if testing.Verbose() {
				logContrast(t, latchTheme(vr.v), vr.v)
			}
		})
	}
}

// TestThemeContrastCatchesFyneDefaults: the check above fails Fyne's own
// theme, whose captions (the disabled colour) are unreadable in both
// themeVariants and whose light placeholders, links and coloured texts are
// below AA.
func TestThemeContrastCatchesFyneDefaults(t *testing.T) {
	test.NewTempApp(t)
	for _, vr := range themeVariants {
		bad := lowContrast(theme.DefaultTheme(), vr.v)
		if !anyPrefixed(bad, string(theme.ColorNameDisabled)+" ") {
			t.Errorf("%s: Fyne's caption colour passed: %q", vr.name, bad)
		}
		if vr.v == theme.VariantLight && !anyPrefixed(bad, string(theme.ColorNamePlaceHolder)+" ") {
			t.Errorf("light: Fyne's placeholder grey passed: %q", bad)
		}
		t.Logf("Fyne's %s theme: %d pairs below AA:\n%s", vr.name, len(bad), strings.Join(bad, "\n"))
	}
}

func anyPrefixed(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// TestThemeVariants: a fixed theme keeps its variant whatever Fyne asks;
// following the desktop takes the variant Fyne passes (dark when the
// desktop says nothing).
func TestThemeVariants(t *testing.T) {
	test.NewTempApp(t)
	bg := func(th fyne.Theme, v fyne.ThemeVariant) color.Color { return th.Color(theme.ColorNameBackground, v) }
	light, dark := lightColors[theme.ColorNameBackground], darkColors[theme.ColorNameBackground]
	for _, tc := range []struct {
		setting string
		asked   fyne.ThemeVariant
		want    color.Color
	}{
		{app.ThemeLight, theme.VariantDark, light},
		{app.ThemeDark, theme.VariantLight, dark},
		{app.ThemeSystem, theme.VariantLight, light},
		{app.ThemeSystem, theme.VariantDark, dark},
		{app.ThemeSystem, 2, dark},
		{"", theme.VariantLight, light},
	} {
		if got := bg(themeFor(tc.setting), tc.asked); got != tc.want {
			t.Errorf("theme %q asked for variant %d: background %v, want %v", tc.setting, tc.asked, got, tc.want)
		}
	}
}

func logContrast(t *testing.T, th fyne.Theme, v fyne.ThemeVariant) {
	for _, p := range textPairs {
		var parts []string
		for _, on := range p.on {
			bg := on.in(th, v)
			fg := blendOver(th.Color(p.text, v), bg)
			parts = append(parts, fmt.Sprintf("%s %s %.2f", on, hexOf(bg), wcagContrast(fg, bg)))
		}
		t.Logf("%-20s %s: %s", p.text, hexOf(blendOver(th.Color(p.text, v), color.White)), strings.Join(parts, " · "))
	}
}
