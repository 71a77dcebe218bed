// hashes.cc -- ns-3.37's flow hash (Ipv4QueueDiscItem::Hash, MurmurHash3
// through Hash32) on a few 5-tuples, and Hash32 on byte strings of every
// length from 0 to 40, so that a port's hash can be checked against it.
// Output: "hash32 <hex bytes> <value>" and
//         "flow <src> <dst> <protocol> <sport> <dport> <perturbation> <value>".
// Build: g++ -O2 -std=c++17 hashes.cc -lns3-core -lns3-network -lns3-internet

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <cinttypes>
#include <cstdio>
#include <string>

using namespace ns3;

int
main()
{
    uint8_t buf[40];
    uint32_t x = 2463534242u;
    for (int len = 0; len <= 40; len++)
    {
        std::string hex;
        for (int i = 0; i < len; i++)
        {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            buf[i] = x & 0xff;
            char h[3];
            std::snprintf(h, 3, "%02x", buf[i]);
            hex += h;
        }
        std::printf("hash32 %s %u\n", len ? hex.c_str() : "-", Hash32((char*)buf, len));
    }
    struct T
    {
        const char* src;
        const char* dst;
        uint8_t prot;
        uint16_t sport, dport;
        uint32_t pert;
    } tuples[] = {{"10.10.1.1", "10.10.1.2", 7, 0, 0, 0},
                  {"10.10.1.1", "10.10.1.7", 7, 0, 0, 0},
                  {"10.10.1.1", "10.10.1.10", 7, 0, 0, 0},
                  {"10.10.1.1", "10.10.1.2", 6, 7, 27, 0},
                  {"10.10.1.1", "10.10.1.2", 6, 7, 28, 0},
                  {"10.10.1.1", "10.10.1.2", 6, 8, 27, 0},
                  {"10.10.1.1", "10.10.1.2", 17, 7, 27, 0},
                  {"10.10.1.1", "10.10.1.2", 17, 7, 28, 0},
                  {"10.10.1.1", "10.10.1.2", 17, 8, 27, 0},
                  {"10.10.1.1", "10.10.1.2", 6, 7, 27, 12345},
                  {"0.0.0.1", "0.0.0.2", 0, 0, 0, 0}};
    for (auto& t : tuples)
    {
        Ipv4Header hdr;
        hdr.SetPayloadSize(100);
        hdr.SetSource(Ipv4Address(t.src));
        hdr.SetDestination(Ipv4Address(t.dst));
        hdr.SetProtocol(t.prot);
        Ptr<Packet> p = Create<Packet>(100);
        if (t.prot == 6)
        {
            TcpHeader h;
            h.SetSourcePort(t.sport);
            h.SetDestinationPort(t.dport);
            p->AddHeader(h);
        }
        else if (t.prot == 17)
        {
            UdpHeader h;
            h.SetSourcePort(t.sport);
            h.SetDestinationPort(t.dport);
            p->AddHeader(h);
        }
        Address dest;
        Ptr<Ipv4QueueDiscItem> item = Create<Ipv4QueueDiscItem>(p, dest, 0, hdr);
        std::printf("flow %u %u %u %u %u %u %u\n", Ipv4Address(t.src).Get(), Ipv4Address(t.dst).Get(),
                    t.prot, t.sport, t.dport, t.pert, item->Hash(t.pert));
    }
    return 0;
}
