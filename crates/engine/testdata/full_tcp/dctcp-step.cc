// DCTCP on a step-marking bottleneck, ns-3.37: S - R1 - R2 - D, 100 Mb/s 2 ms
// access links, 10 Mb/s 10 ms bottleneck with RED set as a step marker
// (MinTh = MaxTh = K, QW = 1, Gentle off, ECN, no hard drop), 2 flows (second
// at 0.5 s).  --sack=0 turns SACK off; data_sent counts the data packets the
// sender put on its link, data_received the segments delivered.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include <iostream>
using namespace ns3;

static Ptr<QueueDisc> g_q;
static double g_qsum = 0;
static uint64_t g_qn = 0;
static uint32_t g_cwr[2] = {0, 0};
static uint64_t g_txdata = 0;
static void PhyTx(Ptr<const Packet> p) { if (p->GetSize() > 200) g_txdata++; }
static void Sample() {
    if (Simulator::Now().GetSeconds() >= 3.0) { g_qsum += g_q->GetNPackets(); g_qn++; }
    Simulator::Schedule(MicroSeconds(100), &Sample);
}
static void CongState(int i, TcpSocketState::TcpCongState_t o, TcpSocketState::TcpCongState_t n) {
    if (n == TcpSocketState::CA_CWR && o != TcpSocketState::CA_CWR) g_cwr[i]++;
}
static void Hook(int i, Ptr<BulkSendApplication> a) {
    Ptr<Socket> s = a->GetSocket();
    s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&CongState, i));
}

int main(int argc, char** argv) {
    std::string cc = "ns3::TcpDctcp";
    uint32_t k = 10;
    bool sack = true;
    CommandLine cmd;
    cmd.AddValue("cc", "socket type", cc);
    cmd.AddValue("k", "step threshold", k);
    cmd.AddValue("sack", "SACK", sack);
    cmd.Parse(argc, argv);
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue(cc));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    if (cc != "ns3::TcpDctcp") Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue("On"));
    NodeContainer n; n.Create(4);
    PointToPointHelper acc; acc.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    acc.SetChannelAttribute("Delay", StringValue("2ms"));
    PointToPointHelper btl; btl.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    btl.SetChannelAttribute("Delay", StringValue("10ms"));
    btl.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    NetDeviceContainer d0 = acc.Install(n.Get(0), n.Get(1));
    NetDeviceContainer d1 = btl.Install(n.Get(1), n.Get(2));
    d0.Get(0)->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&PhyTx));
    NetDeviceContainer d2 = acc.Install(n.Get(2), n.Get(3));
    InternetStackHelper st; st.Install(n);
    TrafficControlHelper red;
    red.SetRootQueueDisc("ns3::RedQueueDisc", "MinTh", DoubleValue(k), "MaxTh", DoubleValue(k),
                         "QW", DoubleValue(1.0), "Gentle", BooleanValue(false), "UseEcn", BooleanValue(true), "UseHardDrop", BooleanValue(false),
                         "MaxSize", StringValue("200p"), "LinkBandwidth", StringValue("10Mbps"),
                         "LinkDelay", StringValue("10ms"), "MeanPktSize", UintegerValue(1502));
    QueueDiscContainer qd = red.Install(d1.Get(0));
    g_q = qd.Get(0);
    Ipv4AddressHelper ip;
    ip.SetBase("10.1.1.0", "255.255.255.0"); ip.Assign(d0);
    ip.SetBase("10.1.2.0", "255.255.255.0"); ip.Assign(d1);
    ip.SetBase("10.1.3.0", "255.255.255.0"); Ipv4InterfaceContainer i2 = ip.Assign(d2);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    Ptr<PacketSink> sinks[2];
    for (int i = 0; i < 2; i++) {
        uint16_t port = 5000 + i;
        PacketSinkHelper sh("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sa = sh.Install(n.Get(3)); sa.Start(Seconds(0));
        sinks[i] = DynamicCast<PacketSink>(sa.Get(0));
        BulkSendHelper bs("ns3::TcpSocketFactory", InetSocketAddress(i2.GetAddress(1), port));
        bs.SetAttribute("MaxBytes", UintegerValue(0));
        ApplicationContainer ba = bs.Install(n.Get(0));
        ba.Start(Seconds(0.5 * i));
        Simulator::Schedule(Seconds(0.5 * i + 0.001), &Hook, i, DynamicCast<BulkSendApplication>(ba.Get(0)));
    }
    uint64_t at3[2];
    Simulator::Schedule(Seconds(3.0), [&]() { for (int i = 0; i < 2; i++) at3[i] = sinks[i]->GetTotalRx(); });
    Simulator::Schedule(Seconds(0), &Sample);
    Simulator::Stop(Seconds(12));
    Simulator::Run();
    QueueDisc::Stats s = g_q->GetStats();
    double gp = 0;
    for (int i = 0; i < 2; i++) gp += (sinks[i]->GetTotalRx() - at3[i]) * 8.0 / 9.0 / 1e6;
    std::cout << "cc " << cc << " goodput_mbps " << gp << " mean_queue_pkts " << g_qsum / g_qn
              << " drops " << s.nTotalDroppedPackets << " marks " << s.nTotalMarkedPackets
              << " cwr " << g_cwr[0] << " " << g_cwr[1] << " data_sent " << g_txdata
              << " data_received " << (sinks[0]->GetTotalRx() + sinks[1]->GetTotalRx()) / 1448 << std::endl;
    Simulator::Destroy();
}
