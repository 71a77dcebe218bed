// The sub-cases of ns-3.37's red-queue-disc-test-suite.cc (its one
// "Sanity check on the red queue implementation", run in packets and in
// bytes), run against the library's RedQueueDisc with the suite's
// attributes.  The suite leaves the random stream to ns-3's automatic
// numbering; here sub-case c of mode m uses stream 100 m + c (seed 1, run
// 1), so that Dumbbell's red.rs tests can start ns-2's generator (the same
// MRG32k3a) at that stream's state.  Per sub-case: the stream's first
// draws, one letter per enqueue (q queued, m marked and queued,
// u/U unforced drop/mark, f forced drop, F forced mark, i dropped by the
// internal queue) and the final counters.
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"
#include <cstdio>
#include <string>

using namespace ns3;

class Item : public QueueDiscItem
{
  public:
    Item(Ptr<Packet> p, bool ect)
        : QueueDiscItem(p, Address(), 0),
          m_ect(ect)
    {
    }
    void AddHeader() override {}
    bool Mark() override { return m_ect; }

  private:
    bool m_ect;
};

struct Case
{
    const char* name;
    double minTh, maxTh, qW, lInterm;
    int gentle, wait, ecn, feng, nlred; // -1: the attribute is left alone
    bool ect;
};

static void
Run(const char* mode, int m, int c, const Case& k, uint32_t modeSize, uint32_t pktSize, uint32_t qSize,
    uint32_t n)
{
    Ptr<RedQueueDisc> q = CreateObject<RedQueueDisc>();
    q->SetAttribute("MinTh", DoubleValue(k.minTh));
    q->SetAttribute("MaxTh", DoubleValue(k.maxTh));
    q->SetAttribute("MaxSize", QueueSizeValue(QueueSize(modeSize == 1 ? QueueSizeUnit::PACKETS
                                                                         : QueueSizeUnit::BYTES,
                                                        qSize)));
    if (k.qW >= 0)
        q->SetAttribute("QW", DoubleValue(k.qW));
    if (k.lInterm >= 0)
        q->SetAttribute("LInterm", DoubleValue(k.lInterm));
    if (k.gentle >= 0)
        q->SetAttribute("Gentle", BooleanValue(k.gentle));
    if (k.wait >= 0)
        q->SetAttribute("Wait", BooleanValue(k.wait));
    if (k.ecn >= 0)
        q->SetAttribute("UseEcn", BooleanValue(k.ecn));
    if (k.feng >= 0)
        q->SetAttribute("FengAdaptive", BooleanValue(k.feng));
    if (k.nlred >= 0)
        q->SetAttribute("NLRED", BooleanValue(k.nlred));
    int64_t stream = 100 * m + c;
    q->AssignStreams(stream);
    Ptr<UniformRandomVariable> twin = CreateObject<UniformRandomVariable>();
    twin->SetStream(stream);
    q->Initialize();
    double d0 = twin->GetValue();
    double d1 = twin->GetValue();
    double d2 = twin->GetValue();
    printf("%s %s stream %ld draws %.17g %.17g %.17g\n", mode, k.name, (long)stream, d0, d1, d2);
    std::string verdicts;
    for (uint32_t i = 0; i < n; i++)
    {
        QueueDisc::Stats a = q->GetStats();
        q->Enqueue(Create<Item>(Create<Packet>(pktSize), k.ect));
        QueueDisc::Stats b = q->GetStats();
        char v = 'q';
        if (b.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP) > a.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP))
            v = 'u';
        else if (b.GetNDroppedPackets(RedQueueDisc::FORCED_DROP) > a.GetNDroppedPackets(RedQueueDisc::FORCED_DROP))
            v = 'f';
        else if (b.GetNDroppedPackets(QueueDisc::INTERNAL_QUEUE_DROP) >
                 a.GetNDroppedPackets(QueueDisc::INTERNAL_QUEUE_DROP))
            v = 'i';
        else if (b.GetNMarkedPackets(RedQueueDisc::UNFORCED_MARK) > a.GetNMarkedPackets(RedQueueDisc::UNFORCED_MARK))
            v = 'U';
        else if (b.GetNMarkedPackets(RedQueueDisc::FORCED_MARK) > a.GetNMarkedPackets(RedQueueDisc::FORCED_MARK))
            v = 'F';
        verdicts += v;
    }
    QueueDisc::Stats st = q->GetStats();
    printf("%s %s enqueues %s\n", mode, k.name, verdicts.c_str());
    printf("%s %s counts unforced_drop=%u forced_drop=%u internal_drop=%u unforced_mark=%u forced_mark=%u "
           "size=%u\n",
           mode, k.name, st.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP),
           st.GetNDroppedPackets(RedQueueDisc::FORCED_DROP),
           st.GetNDroppedPackets(QueueDisc::INTERNAL_QUEUE_DROP),
           st.GetNMarkedPackets(RedQueueDisc::UNFORCED_MARK), st.GetNMarkedPackets(RedQueueDisc::FORCED_MARK),
           q->GetCurrentSize().GetValue());
    // the FIFO order of sub-case 1
    std::string order;
    while (Ptr<QueueDiscItem> it = q->Dequeue())
        order += 'd';
    printf("%s %s dequeued %zu\n", mode, k.name, order.size());
}

int
main()
{
    for (int m = 0; m < 2; m++)
    {
        const char* mode = m == 0 ? "packets" : "bytes";
        uint32_t pktSize = m == 0 ? 0 : 500;
        uint32_t s = m == 0 ? 1 : pktSize; // the suite's modeSize
        // the suite's sub-cases (its drop.testN names), thresholds and
        // limits scaled by modeSize as the suite scales them
        const Case cases[] = {
            {"test1", 2.0 * s, 5.0 * s, 0.002, -1, -1, -1, -1, -1, -1, false},
            {"test2", 70.0 * s, 150.0 * s, -1, -1, -1, -1, -1, -1, -1, false},
            {"test3", 70.0 * s, 150.0 * s, 0.020, -1, -1, -1, -1, -1, -1, false},
            {"test4", 70.0 * s, 100.0 * s, 0.020, -1, -1, -1, -1, -1, -1, false},
            {"test5", 70.0 * s, 150.0 * s, 0.020, 5, -1, -1, -1, -1, -1, false},
            {"test6", 70.0 * s, 150.0 * s, 0.020, -1, 0, -1, -1, -1, -1, false},
            {"test7", 70.0 * s, 150.0 * s, 0.020, -1, -1, 0, -1, -1, -1, false},
            {"test8", 30.0 * s, 90.0 * s, 0.002, 2, 1, -1, 1, -1, -1, false},
            {"test9", 30.0 * s, 90.0 * s, 0.002, 2, 1, -1, 0, -1, -1, true},
            {"test10", 30.0 * s, 90.0 * s, 0.002, 2, 1, -1, 1, -1, -1, true},
            {"test11", 30.0 * s, 90.0 * s, 0.002, 2, 1, -1, -1, -1, -1, false},
            {"test12", 30.0 * s, 90.0 * s, 0.002, 2, 1, -1, -1, 1, -1, false},
            {"test13", 30.0 * s, 90.0 * s, 0.002, 2, 1, -1, -1, -1, 1, false},
        };
        for (int c = 0; c < 13; c++)
        {
            uint32_t qSize = c == 0 ? 8 * s : 300 * s;
            Run(mode, m, c + 1, cases[c], s, pktSize, qSize, c == 0 ? 8 : 300);
        }
    }
    Simulator::Destroy();
    return 0;
}
