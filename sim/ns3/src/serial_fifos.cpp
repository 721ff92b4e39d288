// Serial links' FIFO queues in ns-3 (serial_fifos.hpp).
#include "serial_fifos.hpp"

#include <algorithm>

#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>
#include <ns3/traffic-control-module.h>

#include "ns3_defaults.hpp"

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

namespace {

void on_fifo_bytes(SerialFifos* fifos, std::uint32_t, std::uint32_t now_bytes) {
  fifos->peak_bytes = std::max<std::uint64_t>(fifos->peak_bytes, now_bytes);
}

// Every frame passes the queue disc; one that waited there waited for room in the FIFO.
void on_sojourn(SerialFifos* fifos, n3::Time waited) {
  if (!waited.IsStrictlyPositive()) return;
  ++fifos->held_frames;
  fifos->longest_hold_ns = std::max<std::int64_t>(fifos->longest_hold_ns, waited.GetNanoSeconds());
}

void on_fifo_drop(SerialFifos* fifos, n3::Ptr<const n3::Packet>) {
  ++fifos->drops;
}

void on_held_drop(SerialFifos* fifos, n3::Ptr<const n3::QueueDiscItem>) {
  ++fifos->drops;
}

}  // namespace

std::int64_t serial_queue_bytes(std::int64_t fifo_bytes) {
  return std::max(fifo_bytes, kLargestSerialFrame);
}

void limit_serial_queues(const n3::NetDeviceContainer& devices,
                         const std::shared_ptr<SerialFifos>& fifos) {
  for (std::uint32_t i = 0; i < devices.GetN(); ++i) {
    const n3::Ptr<n3::Queue<n3::Packet>> queue =
        devices.Get(i)->GetObject<n3::PointToPointNetDevice>()->GetQueue();
    queue->SetMaxSize(
        n3::QueueSize(n3::QueueSizeUnit::BYTES, static_cast<std::uint32_t>(fifos->depth_bytes)));
    queue->TraceConnectWithoutContext("BytesInQueue",
                                      n3::MakeBoundCallback(&on_fifo_bytes, fifos.get()));
    queue->TraceConnectWithoutContext("Drop", n3::MakeBoundCallback(&on_fifo_drop, fifos.get()));
  }
  // Back-pressure: a device whose queue cannot take another frame stops, and ns-3's traffic
  // control layer silently drops what is sent to a stopped device without a queue disc (a
  // 1,600-byte FIFO stalled lmmc-2node for RTOs: 7.7 s instead of 0.48). STAFF-Link's hardware
  // retries a store into a full FIFO instead: the sending node holds the frame. A FIFO queue
  // disc in front of the device is that hold, of 1,000 frames.
  n3::TrafficControlHelper control;
  control.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", n3::StringValue(kSerialHoldQueue));
  const n3::QueueDiscContainer discs = control.Install(devices);
  for (std::uint32_t i = 0; i < discs.GetN(); ++i) {
    discs.Get(i)->TraceConnectWithoutContext("SojournTime",
                                             n3::MakeBoundCallback(&on_sojourn, fifos.get()));
    discs.Get(i)->TraceConnectWithoutContext("Drop",
                                             n3::MakeBoundCallback(&on_held_drop, fifos.get()));
  }
}

}  // namespace tsunagi::sim::ns3
