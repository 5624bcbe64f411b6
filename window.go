package main

import "fmt"

func openWindow(dir string) int {
	fmt.Println("window: not built yet", dir)
	return 1
}
