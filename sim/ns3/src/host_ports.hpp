// A process node's own port in ns-3: what its device cannot take yet waits in the node's stack.
//
// ns-3's traffic control layer drops, silently, a packet sent to a device whose queue is full.
// A Linux host does not lose its own TCP segments that way: TCP small queues keep each socket
// to a few segments below it, and a segment the queueing discipline refuses stays in the
// socket's write queue to go out later, without a retransmission time-out. Without this hold,
// the rendezvous answering 257 ranks at once (xc30-256) dropped 694 of its own segments and
// the ranks waited 200 ms for the retransmissions (docs/ns3.md, "A host's own port").
#pragma once

#include <ns3/net-device.h>
#include <ns3/ptr.h>

namespace tsunagi::sim::ns3 {

// What a host holds in front of its device before it too drops: far more than the windows of
// all its connections at this project's sizes (10,000 connections x 10 segments of initial
// window), so in practice never; memory is taken only for what waits.
inline constexpr const char* kHostHoldQueue = "1000000p";

// Puts the hold (a FIFO queue disc of kHostHoldQueue) in front of a process node's device.
void hold_at_host(const ::ns3::Ptr<::ns3::NetDevice>& device);

}  // namespace tsunagi::sim::ns3
