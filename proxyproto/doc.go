// Package proxyproto is the grammar of the PROXY protocol (HAProxy's
// "The PROXY protocol" specification, versions 1 and 2), by which a load
// balancer passes on the address of the client it accepted: Scan finds a
// header at the start of a connection's input, Parse decodes it into a
// Header, and Append encodes one (NewHeader) for a client to send.
//
// It does no I/O. brisk's Server accepts headers on its connections with
// it (brisk.ProxyProtocol; the handler sees brisk.Ctx.Proxy) and brisk's
// client sends one with brisk.ClientConfig.ProxyHeader.
//
// Parsing into a reused Header allocates nothing for TCP headers: the
// addresses and TLVs are copied into the Header's own storage.
package proxyproto
