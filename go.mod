module github.com/latch-app/latch

go 1.26

require (
	fyne.io/fyne/v2 v2.7.1 // indirect
	github.com/adrg/xdg v0.5.3 // indirect
	github.com/mattn/go-shellwords v1.0.16 // indirect
	github.com/rymdport/portal v0.4.2 // indirect
	github.com/tidwall/gjson v1.20.2 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	github.com/tidwall/sjson v1.2.9 // indirect
	golang.org/x/sys v0.30.0 // indirect
)
