// Concurrent writers: processes released together at a barrier, and threads of one process.
// Every record must survive, the file must always parse cleanly, and only the db file and its
// lock file may remain.
#include "unit/find_db_fixture.hpp"

#include <atomic>
#include <chrono>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>

namespace find_db_test {
namespace {

using miopen::conv::readFindDbFile;

constexpr int kWriters       = 8;
constexpr int kKeysPerWriter = 25;
const std::string kSharedKey = "1-1-1-1x1-1-1-1-1-0x0-1x1-1x1-0-NCHW-FP32-F";

std::string keyOf(int writer, int i)
{
    return std::to_string(writer) + "-" + std::to_string(i) + "-3x3-64-1x1-1x1-1x1-0-NCHW-FP32-F";
}

// Distinct, checkable values per (writer, key).
std::vector<FindDbEntry> entriesOf(int writer, int i)
{
    return {entry("GemmFwdRest", static_cast<float>(writer) + static_cast<float>(i) / 64.0f,
                  static_cast<std::size_t>(writer * 1000 + i)),
            entry("ConvDirectNaiveConvFwd", 0.5f + static_cast<float>(i), 0,
                  "miopenConvolutionFwdAlgoDirect")};
}

// Blocks until the write end of `pipeFd` is closed by every holder.
void waitAtBarrier(int readFd)
{
    char c = 0;
    while(::read(readFd, &c, 1) < 0 && errno == EINTR)
    {
    }
}

// A writer process: stores its keys (and the shared key, several times), then checks its own
// keys load back. Exit code 0 on success.
int writer(int id)
{
    FindDb db;
    for(int i = 0; i < kKeysPerWriter; ++i)
    {
        if(!db.store(keyOf(id, i), entriesOf(id, i)))
            return 20;
        if(i % 5 == 0 && !db.store(kSharedKey, entriesOf(id, 1000 + i)))
            return 21;
    }
    for(int i = 0; i < kKeysPerWriter; ++i)
        if(db.load(keyOf(id, i)) != entriesOf(id, i))
            return 22;
    return 0;
}

// A reader process: re-reads the file until every record is there. Every read must parse with
// no corrupt line, and the record count must never go down.
int reader()
{
    const fs::path file       = FindDb::userDbFile();
    const std::size_t total   = kWriters * kKeysPerWriter + 1;
    const auto deadline       = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    std::size_t lastCount     = 0;
    while(std::chrono::steady_clock::now() < deadline)
    {
        const auto contents = readFindDbFile(file);
        if(contents.corruptLines != 0 || contents.duplicateLines != 0)
            return 30;
        if(contents.records.size() < lastCount)
            return 31;
        lastCount = contents.records.size();
        if(lastCount == total)
            return 0;
    }
    return 32;
}

TEST_F(FindDbTest, ConcurrentProcessesKeepEveryRecord)
{
    int barrier[2];
    ASSERT_EQ(::pipe(barrier), 0);

    std::vector<pid_t> pids;
    for(int p = 0; p <= kWriters; ++p) // kWriters writers and one reader
    {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if(pid == 0)
        {
            ::close(barrier[1]);
            waitAtBarrier(barrier[0]);
            int rc = 0;
            try
            {
                rc = p < kWriters ? writer(p) : reader();
            }
            catch(...)
            {
                rc = 120;
            }
            ::_exit(rc);
        }
        pids.push_back(pid);
    }
    ::close(barrier[0]);
    ::close(barrier[1]); // release everyone at once

    for(std::size_t p = 0; p < pids.size(); ++p)
    {
        int status = 0;
        ASSERT_EQ(::waitpid(pids[p], &status, 0), pids[p]);
        ASSERT_TRUE(WIFEXITED(status)) << "process " << p << " died, status " << status;
        EXPECT_EQ(WEXITSTATUS(status), 0) << (p < kWriters ? "writer " : "reader ") << p;
    }

    const auto contents = readFindDbFile(dbFile());
    EXPECT_EQ(contents.corruptLines, 0u);
    EXPECT_EQ(contents.duplicateLines, 0u);
    ASSERT_EQ(contents.records.size(), static_cast<std::size_t>(kWriters * kKeysPerWriter + 1));
    FindDb db;
    for(int w = 0; w < kWriters; ++w)
        for(int i = 0; i < kKeysPerWriter; ++i)
            EXPECT_EQ(db.load(keyOf(w, i)), entriesOf(w, i)) << keyOf(w, i);

    // The shared key holds one writer's complete value, never a mix.
    const auto shared = db.load(kSharedKey);
    ASSERT_TRUE(shared);
    bool matchesOne = false;
    for(int w = 0; w < kWriters; ++w)
        for(int i = 0; i < kKeysPerWriter; i += 5)
            matchesOne = matchesOne || *shared == entriesOf(w, 1000 + i);
    EXPECT_TRUE(matchesOne);

    EXPECT_EQ(listDir(dir()), (std::set<std::string>{dbFile().filename().string(),
                                                      lockFile().filename().string()}));
}

TEST_F(FindDbTest, ConcurrentThreadsKeepEveryRecord)
{
    std::atomic<int> ready{0};
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for(int t = 0; t < kWriters; ++t)
        threads.emplace_back([&, t] {
            ++ready;
            while(ready.load() < kWriters)
                std::this_thread::yield();
            FindDb db;
            for(int i = 0; i < kKeysPerWriter; ++i)
                if(!db.store(keyOf(t, i), entriesOf(t, i)))
                    ++failures;
        });
    for(auto& t : threads)
        t.join();
    EXPECT_EQ(failures.load(), 0);

    const auto contents = readFindDbFile(dbFile());
    EXPECT_EQ(contents.corruptLines, 0u);
    ASSERT_EQ(contents.records.size(), static_cast<std::size_t>(kWriters * kKeysPerWriter));
    FindDb db;
    for(int w = 0; w < kWriters; ++w)
        for(int i = 0; i < kKeysPerWriter; ++i)
            EXPECT_EQ(db.load(keyOf(w, i)), entriesOf(w, i)) << keyOf(w, i);
    EXPECT_EQ(listDir(dir()), (std::set<std::string>{dbFile().filename().string(),
                                                      lockFile().filename().string()}));
}

// A writer killed while holding the lock (SIGKILL mid-store, temporary on disk) must not block
// later writers (the kernel drops the flock) and its temporary must be cleaned up.
TEST_F(FindDbTest, WriterKilledWhileHoldingTheLockDoesNotWedgeOthers)
{
    ASSERT_TRUE(FindDb().store(keyOf(0, 0), entriesOf(0, 0)));
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if(pid == 0)
    {
        // Imitate a store() cut short: lock held, temporary half written.
        const std::string lock = FindDb::userDbFile().string() + ".lock";
        const int fd           = ::open(lock.c_str(), O_RDWR | O_CREAT, 0666);
        if(fd < 0 || ::flock(fd, LOCK_EX) != 0)
            ::_exit(1);
        const std::string tmp = FindDb::userDbFile().string() + ".tmp." +
                                std::to_string(::getpid()) + ".0";
        const int t = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
        if(t < 0 || ::write(t, "k=S:1,", 6) != 6)
            ::_exit(2);
        if(::write(ready[1], "x", 1) != 1)
            ::_exit(3);
        for(;;)
            ::pause();
    }
    ::close(ready[1]);
    char c = 0;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    ::close(ready[0]);

    // While the child holds the lock, a store must wait; once it is killed, the store proceeds.
    std::atomic<bool> done{false};
    bool stored = false;
    std::thread storer([&] {
        stored = FindDb().store(keyOf(1, 1), entriesOf(1, 1));
        done   = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_FALSE(done.load()) << "store did not wait for the lock";
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    storer.join();
    EXPECT_TRUE(stored);

    FindDb db;
    EXPECT_EQ(db.load(keyOf(0, 0)), entriesOf(0, 0));
    EXPECT_EQ(db.load(keyOf(1, 1)), entriesOf(1, 1));
    EXPECT_EQ(listDir(dir()), (std::set<std::string>{dbFile().filename().string(),
                                                      lockFile().filename().string()}));
}

} // namespace
} // namespace find_db_test
