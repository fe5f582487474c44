package broker

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"
)

func TestIsPublic(t *testing.T) {
	cases := map[string]bool{
		"8.8.8.8": true, "1.1.1.1": true, "2606:4700::1111": true, "93.184.216.34": true,
		"127.0.0.1": false, "127.8.9.1": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false,
		"192.168.1.1": false, "169.254.169.254": false, "fe80::1": false, "fc00::1": false,
		"0.0.0.0": false, "::": false, "100.64.0.1": false, "224.0.0.1": false, "255.255.255.255": false,
		"::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "::ffff:8.8.8.8": true,
	}
	for s, want := range cases {
		if got := isPublic(netip.MustParseAddr(s)); got != want {
			t.Errorf("isPublic(%s) = %v, want %v", s, got, want)
		}
	}
}

// A host name that resolves to loopback is refused at connect time; the
// IP literal (which reaches the dialer only when listed) connects.
func TestPublicDialer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	dial := publicDialer()
	if _, err := dial(context.Background(), "tcp", "localhost:"+port); err == nil || !strings.Contains(err.Error(), "not a public address") {
		t.Errorf("localhost: %v", err)
	}
	c, err := dial(context.Background(), "tcp", "127.0.0.1:"+port)
	if err != nil {
		t.Fatalf("listed IP literal: %v", err)
	}
	c.Close()
}
