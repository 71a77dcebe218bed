// ns-3.37's FqCobaltQueueDisc in the set-up of its suite's ECN-marking case
// (src/test/ns3tc/fq-cobalt-queue-disc-test-suite.cc, FqCobaltQueueDiscEcnMarking),
// printing what that case asserts on: for each of its three sub-cases, each
// flow queue's forced marks, CE-threshold marks, target-exceeded drops and
// packets left, and how many DropNext trace calls the case's tracer counts
// (the case connects it to flow queue 3 at every dequeue that finds that
// queue holding 19 packets, so one change may be counted more than once).
// Build and run: see ecn-marking.sh.

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"

#include <cinttypes>
#include <cstdio>

using namespace ns3;

static uint32_t g_dropNextCalls = 0;

static void
OnDropNext(int64_t, int64_t)
{
    g_dropNextCalls++;
}

static Ptr<CobaltQueueDisc>
Flow(Ptr<FqCobaltQueueDisc> q, uint32_t i)
{
    return q->GetQueueDiscClass(i)->GetQueueDisc()->GetObject<CobaltQueueDisc>();
}

static void
DequeueOne(Ptr<FqCobaltQueueDisc> q)
{
    if (Flow(q, 3)->GetNPackets() == 19)
    {
        Flow(q, 3)->TraceConnectWithoutContext("DropNext", MakeCallback(&OnDropNext));
    }
    q->Dequeue();
}

static void
Run(int sub, double delay, bool ceThreshold, bool blueOff)
{
    Ptr<FqCobaltQueueDisc> q = CreateObject<FqCobaltQueueDisc>();
    q->SetAttribute("MaxSize", StringValue("10240p"));
    q->SetAttribute("UseEcn", BooleanValue(true));
    if (ceThreshold)
    {
        q->SetAttribute("CeThreshold", TimeValue(MilliSeconds(2)));
    }
    if (blueOff)
    {
        q->SetAttribute("BlueThreshold", TimeValue(Time::Max()));
    }
    q->SetQuantum(1514);
    q->Initialize();
    g_dropNextCalls = 0;
    const char* dst[5] = {"10.10.1.2", "10.10.1.10", "10.10.1.20", "10.10.1.30", "10.10.1.40"};
    for (int f = 0; f < 5; f++)
    {
        Ipv4Header hdr;
        hdr.SetPayloadSize(100);
        hdr.SetSource(Ipv4Address("10.10.1.1"));
        hdr.SetDestination(Ipv4Address(dst[f]));
        hdr.SetProtocol(7);
        hdr.SetEcn(f < 3 ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT);
        for (int i = 0; i < 20; i++)
        {
            q->Enqueue(Create<Ipv4QueueDiscItem>(Create<Packet>(100), Address(), 0, hdr));
        }
    }
    for (uint32_t i = 0; i < 60; i++)
    {
        Simulator::Schedule(Seconds((i + 1) * delay), &DequeueOne, q);
    }
    Simulator::Run();
    std::printf("case %d classes=%zu packets=%u dropnext_calls=%u\n",
                sub, q->GetNQueueDiscClasses(), q->GetNPackets(), g_dropNextCalls);
    for (uint32_t i = 0; i < q->GetNQueueDiscClasses(); i++)
    {
        QueueDisc::Stats s = Flow(q, i)->GetStats();
        std::printf("flow %u forced_marks=%u ce_marks=%u target_drops=%u left=%u\n",
                    i,
                    s.GetNMarkedPackets(CobaltQueueDisc::FORCED_MARK),
                    s.GetNMarkedPackets(CobaltQueueDisc::CE_THRESHOLD_EXCEEDED_MARK),
                    s.GetNDroppedPackets(CobaltQueueDisc::TARGET_EXCEEDED_DROP),
                    Flow(q, i)->GetNPackets());
    }
    Simulator::Destroy();
}

int
main()
{
    Run(1, 0.11, false, true);
    Run(2, 0.0001, true, false);
    Run(3, 0.110, true, true);
    return 0;
}
