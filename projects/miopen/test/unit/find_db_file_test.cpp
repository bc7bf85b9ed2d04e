// The user find-db on disk: location, round trips, corrupt files, failures to persist, the
// disable switch.
#include "unit/find_db_fixture.hpp"

#include <miopen/errors.hpp>

#include <map>
#include <random>
#include <regex>

#include <csignal>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>

namespace find_db_test {
namespace {

using miopen::conv::FindDbFileContents;
using miopen::conv::readFindDbFile;

const std::string kKey  = "576-4-4-1x1-192-4-4-8-1x1-2x2-3x3-0-NCHW-FP32-F";
const std::string kKey2 = "64-56-56-3x3-64-56-56-32-1x1-1x1-1x1-0-NCHW-FP32-B";
const std::string kKey3 = "64-56-56-3x3-64-56-56-32-1x1-1x1-1x1-0-NCHW-FP16-W_g2";

ino_t inodeOf(const fs::path& p)
{
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

// ---------------------------------------------------------------------------------------------
// Location

TEST_F(FindDbTest, FileNameFollowsUpstreamPattern)
{
    const fs::path file = FindDb::userDbFile();
    EXPECT_EQ(file.parent_path(), dir());
    const std::regex pattern(R"(cpu_[a-z0-9_]+_[1-9][0-9]*\.HIP\.3_5_0\.ufdb\.txt)");
    EXPECT_TRUE(std::regex_match(file.filename().string(), pattern)) << file;
    EXPECT_EQ(file.filename().string(), FindDb::deviceBasename() + ".HIP.3_5_0.ufdb.txt");
#if defined(__x86_64__)
    EXPECT_EQ(FindDb::deviceBasename().rfind("cpu_x86_64_", 0), 0u) << FindDb::deviceBasename();
#endif
    EXPECT_EQ(FindDb().file(), file);
}

TEST_F(FindDbTest, DirectoryIsReadFromTheEnvironmentEachTime)
{
    const fs::path other = root() / "other";
    {
        ScopedEnv env("MIOPEN_USER_DB_PATH", other.c_str());
        EXPECT_EQ(FindDb::userDbDirectory(), other);
        EXPECT_EQ(FindDb().file().parent_path(), other);
    }
    EXPECT_EQ(FindDb::userDbDirectory(), dir());

    {
        ScopedEnv unsetPath("MIOPEN_USER_DB_PATH", nullptr);
        ScopedEnv home("HOME", "/home/someone");
        {
            ScopedEnv xdg("XDG_CONFIG_HOME", "/xdg/config");
            EXPECT_EQ(FindDb::userDbDirectory(), fs::path("/xdg/config/miopen"));
        }
        {
            ScopedEnv xdg("XDG_CONFIG_HOME", nullptr);
            EXPECT_EQ(FindDb::userDbDirectory(), fs::path("/home/someone/.config/miopen"));
        }
        {
            ScopedEnv xdg("XDG_CONFIG_HOME", "relative/ignored"); // XDG: must be absolute
            EXPECT_EQ(FindDb::userDbDirectory(), fs::path("/home/someone/.config/miopen"));
        }
        {
            ScopedEnv xdg("XDG_CONFIG_HOME", nullptr);
            ScopedEnv tilde("MIOPEN_USER_DB_PATH", "~/dbs/x");
            EXPECT_EQ(FindDb::userDbDirectory(), fs::path("/home/someone/dbs/x"));
        }
        {
            ScopedEnv xdg("XDG_CONFIG_HOME", nullptr);
            ScopedEnv empty("MIOPEN_USER_DB_PATH", ""); // empty counts as unset
            EXPECT_EQ(FindDb::userDbDirectory(), fs::path("/home/someone/.config/miopen"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Round trips

TEST_F(FindDbTest, MissingFileIsAMiss)
{
    FindDb db;
    EXPECT_FALSE(fs::exists(db.file()));
    EXPECT_FALSE(db.load(kKey));
    EXPECT_EQ(readFindDbFile(db.file()).state, FindDbFileContents::State::Missing);
}

TEST_F(FindDbTest, StoreThenLoadSeveralKeys)
{
    FindDb db;
    const std::vector<FindDbEntry> a = {entry("GemmFwd1x1_0_1", 0.77f, 0),
                                        entry("ConvDirectNaiveConvFwd", 12.5f, 0,
                                              "miopenConvolutionFwdAlgoDirect")};
    const std::vector<FindDbEntry> b = {
        entry("GemmBwdRest", 3.19093f, 32768, "miopenConvolutionBwdDataAlgoGEMM")};
    const std::vector<FindDbEntry> c = {
        entry("ConvWinograd3x3", 1e-3f, 1u << 20, "miopenConvolutionBwdWeightsAlgoWinograd")};
    EXPECT_TRUE(db.store(kKey, a));
    EXPECT_TRUE(db.store(kKey2, b));
    EXPECT_TRUE(db.store(kKey3, c));

    // A new object (as a new process would) sees all three.
    FindDb again;
    EXPECT_EQ(again.load(kKey), a);
    EXPECT_EQ(again.load(kKey2), b);
    EXPECT_EQ(again.load(kKey3), c);
    EXPECT_FALSE(again.load("1-2-3-NCHW-FP32-F"));

    // The text is exactly upstream's, one record per line, in insertion order.
    EXPECT_EQ(readText(db.file()),
              kKey + "=GemmFwd1x1_0_1:0.77,0,miopenConvolutionFwdAlgoGEMM;"
                     "ConvDirectNaiveConvFwd:12.5,0,miopenConvolutionFwdAlgoDirect\n" +
                  kKey2 + "=GemmBwdRest:3.19093,32768,miopenConvolutionBwdDataAlgoGEMM\n" +
                  kKey3 +
                  "=ConvWinograd3x3:0.001,1048576,miopenConvolutionBwdWeightsAlgoWinograd\n");
    EXPECT_EQ(listDir(dir()), (std::set<std::string>{db.file().filename().string(),
                                                      lockFile().filename().string()}));
}

// load() parses each version of the file once (a per-process cache checked against device,
// inode, size and mtime): every kind of change is still seen at the next load.
TEST_F(FindDbTest, LoadSeesEveryNewVersionOfTheFile)
{
    FindDb db;
    const auto line = [](const char* solver, const char* time) {
        return kKey + "=" + solver + ":" + time + ",0,miopenConvolutionFwdAlgoGEMM\n";
    };
    writeText(db.file(), line("GemmFwd1x1_0_1", "0.5"));
    ASSERT_TRUE(db.load(kKey));
    EXPECT_EQ(db.load(kKey)->at(0).solver, "GemmFwd1x1_0_1");
    EXPECT_EQ(db.load(kKey)->at(0).solver, "GemmFwd1x1_0_1"); // served from the parsed copy
    // Rewritten in place (same inode), another size.
    writeText(db.file(), line("GemmFwd1x1_0_2", "0.25"));
    EXPECT_EQ(db.load(kKey)->at(0).solver, "GemmFwd1x1_0_2");
    // Rewritten in place with the same size: the mtime tells.
    const ino_t inode = inodeOf(db.file());
    writeText(db.file(), line("GemmFwd1x1_0_1", "0.75"));
    ASSERT_EQ(inodeOf(db.file()), inode);
    const timespec later[2] = {{0, UTIME_OMIT}, {2000000000, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, db.file().c_str(), later, 0), 0);
    EXPECT_FLOAT_EQ(db.load(kKey)->at(0).timeMs, 0.75f);
    // Replaced by store() (rename: a new inode), then removed.
    EXPECT_TRUE(db.store(kKey2, {entry("GemmBwdRest", 3.0f, 0, "miopenConvolutionBwdDataAlgoGEMM")}));
    EXPECT_TRUE(db.load(kKey2));
    EXPECT_TRUE(db.load(kKey));
    fs::remove(db.file());
    EXPECT_FALSE(db.load(kKey));
    EXPECT_FALSE(db.load(kKey2));
}

TEST_F(FindDbTest, StoreReplacesAKeyInPlace)
{
    FindDb db;
    ASSERT_TRUE(db.store(kKey, {entry("A", 1.0f, 0)}));
    ASSERT_TRUE(db.store(kKey2, {entry("B", 2.0f, 0)}));
    ASSERT_TRUE(db.store(kKey, {entry("C", 3.0f, 64), entry("A", 4.0f, 0)}));
    EXPECT_EQ(db.load(kKey), (std::vector<FindDbEntry>{entry("C", 3.0f, 64), entry("A", 4.0f, 0)}));
    EXPECT_EQ(db.load(kKey2), (std::vector<FindDbEntry>{entry("B", 2.0f, 0)}));
    const auto contents = readFindDbFile(db.file());
    ASSERT_EQ(contents.records.size(), 2u);
    EXPECT_EQ(contents.records[0].key, kKey); // replaced where it was
    EXPECT_EQ(contents.records[1].key, kKey2);
}

TEST_F(FindDbTest, EmptyEntriesRemoveTheRecord)
{
    FindDb db;
    ASSERT_TRUE(db.store(kKey, {entry("A", 1.0f, 0)}));
    ASSERT_TRUE(db.store(kKey2, {entry("B", 2.0f, 0)}));
    EXPECT_TRUE(db.store(kKey, {}));
    EXPECT_FALSE(db.load(kKey));
    EXPECT_TRUE(db.load(kKey2));
    EXPECT_TRUE(db.store(kKey, {})); // removing an absent record succeeds
    EXPECT_EQ(readFindDbFile(db.file()).records.size(), 1u);
}

TEST_F(FindDbTest, StoringTheSameRecordDoesNotRewriteTheFile)
{
    FindDb db;
    ASSERT_TRUE(db.store(kKey, {entry("A", 1.0f, 0)}));
    const ino_t before = inodeOf(db.file());
    ASSERT_NE(before, 0u);
    EXPECT_TRUE(db.store(kKey, {entry("A", 1.0f, 0)}));
    EXPECT_EQ(inodeOf(db.file()), before);
    EXPECT_TRUE(db.store(kKey, {entry("A", 1.5f, 0)})); // a change is a new file (rename)
    EXPECT_NE(inodeOf(db.file()), before);
}

TEST_F(FindDbTest, ManyKeysAndManyEntriesPreserveEveryValue)
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> time(0.0f, 500.0f);
    std::uniform_int_distribution<std::size_t> ws(0, std::size_t{1} << 40);
    const char* algos[] = {"miopenConvolutionFwdAlgoGEMM", "miopenConvolutionFwdAlgoDirect",
                           "miopenConvolutionFwdAlgoWinograd", "miopenConvolutionFwdAlgoFFT",
                           "miopenConvolutionFwdAlgoImplicitGEMM"};

    std::map<std::string, std::vector<FindDbEntry>> expected;
    FindDb db;
    for(int k = 0; k < 60; ++k)
    {
        std::vector<FindDbEntry> entries;
        for(int s = 0; s < 1 + k % 40; ++s) // up to 40 entries in one record
            entries.push_back(
                entry("Solver_" + std::to_string(s), time(rng), ws(rng), algos[s % 5]));
        const std::string key =
            std::to_string(k) + "-56-56-3x3-64-56-56-32-1x1-1x1-1x1-0-NCHW-FP32-F";
        ASSERT_TRUE(db.store(key, entries));
        expected[key] = entries;
    }
    // Replace every third key.
    for(auto& [key, entries] : expected)
        if(key[0] % 3 == 0)
        {
            entries.front().timeMs = time(rng);
            ASSERT_TRUE(db.store(key, entries));
        }

    const auto contents = readFindDbFile(db.file());
    EXPECT_EQ(contents.corruptLines, 0u);
    EXPECT_EQ(contents.records.size(), expected.size());
    FindDb reader;
    for(const auto& [key, entries] : expected)
        EXPECT_EQ(reader.load(key), entries) << key; // exact float equality
}

TEST_F(FindDbTest, LaterDuplicateLineWins)
{
    FindDb db;
    writeText(db.file(), "k1=A:1,0,miopenConvolutionFwdAlgoGEMM\n"
                         "k2=B:2,0,miopenConvolutionFwdAlgoGEMM\n"
                         "k1=C:3,0,miopenConvolutionFwdAlgoGEMM\n");
    EXPECT_EQ(db.load("k1"), (std::vector<FindDbEntry>{entry("C", 3.0f, 0)}));
    ASSERT_TRUE(db.store("k3", {entry("D", 4.0f, 0)}));
    EXPECT_EQ(readText(db.file()), "k1=C:3,0,miopenConvolutionFwdAlgoGEMM\n"
                                   "k2=B:2,0,miopenConvolutionFwdAlgoGEMM\n"
                                   "k3=D:4,0,miopenConvolutionFwdAlgoGEMM\n");
}

TEST_F(FindDbTest, LegacyLinesAreReadAndRewrittenInTheCurrentForm)
{
    FindDb db;
    writeText(db.file(), "k1=miopenConvolutionFwdAlgoDirect:ConvOclDirectFwd1x1,0.0368,0,"
                         "miopenConvolutionFwdAlgoDirect,<unused>\n");
    EXPECT_EQ(db.load("k1"),
              (std::vector<FindDbEntry>{
                  entry("ConvOclDirectFwd1x1", 0.0368f, 0, "miopenConvolutionFwdAlgoDirect")}));
    ASSERT_TRUE(db.store("k2", {entry("D", 4.0f, 0)}));
    EXPECT_EQ(readText(db.file()),
              "k1=ConvOclDirectFwd1x1:0.0368,0,miopenConvolutionFwdAlgoDirect\n"
              "k2=D:4,0,miopenConvolutionFwdAlgoGEMM\n");
}

TEST_F(FindDbTest, InvalidKeyOrEntryThrowsBadParmAndWritesNothing)
{
    FindDb db;
    auto expectBadParm = [](const auto& call) {
        try
        {
            call();
            ADD_FAILURE() << "no exception";
        }
        catch(const miopen::Exception& e)
        {
            EXPECT_EQ(e.status(), miopenStatusBadParm) << e.what();
        }
    };
    expectBadParm([&] { (void)db.store("bad=key", {entry("A", 1.0f, 0)}); });
    expectBadParm([&] { (void)db.store("bad\nkey", {}); });
    expectBadParm([&] { (void)db.store(kKey, {entry("A", -1.0f, 0)}); });
    expectBadParm([&] { (void)db.store(kKey, {entry("A", 1.0f, 0, "GEMM")}); });
    expectBadParm([&] { (void)db.load("bad=key"); });
    EXPECT_TRUE(listDir(dir()).empty());
}

// ---------------------------------------------------------------------------------------------
// Corrupt files

TEST_F(FindDbTest, CorruptLinesAreSkippedWithWarningsAndCleanedByTheNextStore)
{
    FindDb db;
    const std::string good1 = "k1=A:1.5,0,miopenConvolutionFwdAlgoGEMM";
    const std::string good2 = "k2=B:2.25,128,miopenConvolutionBwdDataAlgoDirect;C:3,0,"
                              "miopenConvolutionBwdDataAlgoGEMM";
    const std::string good3 = "k3=D:0.5,0,miopenConvolutionBwdWeightsAlgoGEMM\r"; // CRLF
    std::string text;
    text += "garbage without separators\n";
    text += good1 + "\n";
    text += "\n"; // empty lines are not corrupt
    text += "k4=E:abc,0,miopenConvolutionFwdAlgoGEMM\n";     // bad time
    text += "k5=E:1,-64,miopenConvolutionFwdAlgoGEMM\n";     // negative size
    text += std::string("\x00\x01\xff\xfe binary\x7f junk", 17) + "\n";
    text += good2 + "\n";
    text += "k6=E:nan,0,miopenConvolutionFwdAlgoGEMM\n";     // NaN
    text += "k7=E:1,0\n";                                    // missing field
    text += good3 + "\n";
    text += "k8=E:1,0,miopenConvolutionFwdAlgoGEMM;F:0.";    // truncated last line, no newline
    writeText(db.file(), text);

    CapturedLog log;
    const auto contents = readFindDbFile(db.file());
    EXPECT_EQ(contents.state, FindDbFileContents::State::Read);
    EXPECT_EQ(contents.corruptLines, 7u);
    ASSERT_EQ(contents.records.size(), 3u);
    EXPECT_EQ(db.load("k1"), (std::vector<FindDbEntry>{entry("A", 1.5f, 0)}));
    EXPECT_EQ(db.load("k2"),
              (std::vector<FindDbEntry>{
                  entry("B", 2.25f, 128, "miopenConvolutionBwdDataAlgoDirect"),
                  entry("C", 3.0f, 0, "miopenConvolutionBwdDataAlgoGEMM")}));
    EXPECT_EQ(db.load("k3"), (std::vector<FindDbEntry>{
                                 entry("D", 0.5f, 0, "miopenConvolutionBwdWeightsAlgoGEMM")}));
    for(const char* k : {"k4", "k5", "k6", "k7", "k8"})
        EXPECT_FALSE(db.load(k)) << k;
    const std::string warnings = log.stop();
    EXPECT_NE(warnings.find("MIOpen(HIP): Warning"), std::string::npos) << warnings;
    // Lines 1, 4, 5, 6, 8 are reported one by one (the first five), the rest in the total.
    EXPECT_NE(warnings.find("corrupt line 1: garbage without separators"), std::string::npos)
        << warnings;
    EXPECT_NE(warnings.find("corrupt line 6: ???? binary? junk"), std::string::npos) << warnings;
    EXPECT_NE(warnings.find("corrupt line 8: k6=E:nan"), std::string::npos) << warnings;
    EXPECT_EQ(warnings.find("corrupt line 9:"), std::string::npos) << warnings;
    // Reported once for this version of the file, although it was read nine times.
    EXPECT_EQ(countOccurrences(warnings, "skipping corrupt line"), 5u) << warnings;
    EXPECT_EQ(countOccurrences(warnings, "corrupt lines skipped in total"), 1u) << warnings;
    EXPECT_NE(warnings.find("7 corrupt lines skipped in total"), std::string::npos) << warnings;

    // The next store writes a clean file: good records kept, corrupt ones gone.
    ASSERT_TRUE(db.store("k9", {entry("G", 9.0f, 9)}));
    const auto after = readFindDbFile(db.file());
    EXPECT_EQ(after.corruptLines, 0u);
    EXPECT_EQ(readText(db.file()),
              "k1=A:1.5,0,miopenConvolutionFwdAlgoGEMM\n"
              "k2=B:2.25,128,miopenConvolutionBwdDataAlgoDirect;"
              "C:3,0,miopenConvolutionBwdDataAlgoGEMM\n"
              "k3=D:0.5,0,miopenConvolutionBwdWeightsAlgoGEMM\n"
              "k9=G:9,9,miopenConvolutionFwdAlgoGEMM\n");
}

TEST_F(FindDbTest, StoringAnExistingRecordStillRewritesACorruptFile)
{
    FindDb db;
    writeText(db.file(), "k1=A:1,0,miopenConvolutionFwdAlgoGEMM\njunk\n");
    ASSERT_TRUE(db.store("k1", {entry("A", 1.0f, 0)}));
    EXPECT_EQ(readText(db.file()), "k1=A:1,0,miopenConvolutionFwdAlgoGEMM\n");
}

TEST_F(FindDbTest, EntirelyBinaryFileIsAMissAndIsReplaced)
{
    FindDb db;
    std::string junk;
    std::mt19937 rng(3);
    for(int i = 0; i < 4096; ++i)
        junk.push_back(static_cast<char>(rng() & 0xff));
    writeText(db.file(), junk);
    EXPECT_FALSE(db.load(kKey));
    ASSERT_TRUE(db.store(kKey, {entry("A", 1.0f, 0)}));
    const auto contents = readFindDbFile(db.file());
    EXPECT_EQ(contents.corruptLines, 0u);
    ASSERT_EQ(contents.records.size(), 1u);
    EXPECT_EQ(contents.records[0].key, kKey);
}

// ---------------------------------------------------------------------------------------------
// Failures to persist: store() returns false, Find goes on, nothing is left behind.

TEST_F(FindDbTest, MissingDirectoryIsCreatedOnStore)
{
    const fs::path nested = root() / "a" / "b" / "c";
    ScopedEnv env("MIOPEN_USER_DB_PATH", nested.c_str());
    FindDb db;
    EXPECT_FALSE(fs::exists(nested));
    EXPECT_FALSE(db.load(kKey)); // loading does not create anything
    EXPECT_FALSE(fs::exists(nested));
    ASSERT_TRUE(db.store(kKey, {entry("A", 1.0f, 0)}));
    EXPECT_TRUE(fs::is_directory(nested));
    EXPECT_EQ(FindDb().load(kKey), (std::vector<FindDbEntry>{entry("A", 1.0f, 0)}));
}

// chmod 0555 binds for ordinary users only; as root the child drops to "nobody" first, so the
// test means the same under both.
TEST_F(FindDbTest, ReadOnlyDirectoryStoreFailsAndLoadStillWorks)
{
    FindDb db;
    ASSERT_TRUE(db.store(kKey, {entry("A", 1.0f, 0)}));
    const std::string before = readText(db.file());
    fs::permissions(root(), fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec |
                                fs::perms::group_read | fs::perms::group_exec);
    fs::permissions(dir(), fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                               fs::perms::group_exec | fs::perms::others_read |
                               fs::perms::others_exec);
    fs::permissions(db.file(), fs::perms::others_read, fs::perm_options::add);
    // The lock file stays usable, so the failure comes from the directory itself.
    fs::permissions(lockFile(), fs::perms::all & ~fs::perms::owner_exec & ~fs::perms::group_exec &
                                    ~fs::perms::others_exec);

    const int rc = runInChild([&]() -> int {
        if(!dropRootPrivileges())
            return 10;
        // Permissions must bind now; otherwise this test would prove nothing.
        const std::string probe = (dir() / "probe").string();
        const int fd            = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
        if(fd >= 0)
        {
            ::close(fd);
            ::unlink(probe.c_str());
            return 11;
        }
        FindDb child;
        const auto loaded = child.load(kKey);
        if(!loaded || loaded->size() != 1 || (*loaded)[0] != entry("A", 1.0f, 0))
            return 12;
        if(child.store(kKey2, {entry("B", 2.0f, 0)}))
            return 13;
        if(child.store(kKey, {entry("A", 5.0f, 0)}))
            return 14;
        return 0;
    });
    EXPECT_EQ(rc, 0) << "10: cannot drop privileges, 11: permissions do not bind, 12: load "
                        "failed, 13/14: store claimed success";
    EXPECT_EQ(readText(db.file()), before);
    EXPECT_EQ(listDir(dir()), (std::set<std::string>{db.file().filename().string(),
                                                      lockFile().filename().string()}));
}

TEST_F(FindDbTest, DirectoryBlockedByARegularFileFailsCleanly)
{
    // A parent that is a regular file: no user, root included, can create the directory.
    writeText(root() / "plainfile", "not a directory\n");
    const fs::path blocked = root() / "plainfile" / "db";
    ScopedEnv env("MIOPEN_USER_DB_PATH", blocked.c_str());
    FindDb db;
    CapturedLog log;
    EXPECT_FALSE(db.load(kKey));
    EXPECT_FALSE(db.store(kKey, {entry("A", 1.0f, 0)}));
    const std::string warnings = log.stop();
    EXPECT_NE(warnings.find("find-db not saved: cannot create directory"), std::string::npos)
        << warnings;
    EXPECT_EQ(readText(root() / "plainfile"), "not a directory\n");
}

TEST_F(FindDbTest, UnusableLockFileFailsCleanly)
{
    FindDb db;
    ASSERT_TRUE(db.store(kKey, {entry("A", 1.0f, 0)}));
    const std::string before = readText(db.file());
    fs::remove(lockFile());
    fs::create_directory(lockFile()); // open(O_RDWR) of a directory fails, even for root
    CapturedLog log;
    EXPECT_FALSE(db.store(kKey2, {entry("B", 2.0f, 0)}));
    const std::string warnings = log.stop();
    EXPECT_NE(warnings.find("cannot open lock file"), std::string::npos) << warnings;
    EXPECT_EQ(readText(db.file()), before);
    EXPECT_EQ(db.load(kKey), (std::vector<FindDbEntry>{entry("A", 1.0f, 0)}));
}

TEST_F(FindDbTest, UnreadableExistingFileIsNotReplaced)
{
    FindDb db;
    fs::create_directory(db.file()); // exists, cannot be read as a file
    fs::create_directory(db.file() / "keep");
    EXPECT_FALSE(db.load(kKey));
    EXPECT_FALSE(db.store(kKey, {entry("A", 1.0f, 0)}));
    EXPECT_TRUE(fs::is_directory(db.file() / "keep"));
    EXPECT_EQ(listDir(dir()), (std::set<std::string>{db.file().filename().string(),
                                                      lockFile().filename().string()}));
}

// An existing regular file this user cannot read must not be replaced by a file holding only the
// new record (that would silently drop everything recorded so far).
TEST_F(FindDbTest, UnreadableRegularFileIsNotReplaced)
{
    FindDb db;
    ASSERT_TRUE(db.store(kKey, {entry("A", 1.0f, 0)}));
    const std::string before = readText(db.file());
    fs::permissions(root(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
    fs::permissions(dir(), fs::perms::all); // anyone could create and rename here
    fs::permissions(lockFile(), fs::perms::owner_read | fs::perms::owner_write |
                                    fs::perms::group_read | fs::perms::group_write |
                                    fs::perms::others_read | fs::perms::others_write);
    fs::permissions(db.file(), fs::perms::none);

    const int rc = runInChild([&]() -> int {
        if(!dropRootPrivileges())
            return 10;
        const int fd = ::open(FindDb::userDbFile().c_str(), O_RDONLY);
        if(fd >= 0) // permissions must bind, or this test would prove nothing
        {
            ::close(fd);
            return 11;
        }
        FindDb child;
        if(child.load(kKey))
            return 12;
        if(child.store(kKey2, {entry("B", 2.0f, 0)}))
            return 13;
        return 0;
    });
    EXPECT_EQ(rc, 0) << "10: cannot drop privileges, 11: permissions do not bind, 12: load "
                        "succeeded, 13: store replaced the file";
    fs::permissions(db.file(), fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_EQ(readText(db.file()), before);
    EXPECT_EQ(listDir(dir()), (std::set<std::string>{db.file().filename().string(),
                                                      lockFile().filename().string()}));
}

// A write that fails midway (disk full, quota): simulated with RLIMIT_FSIZE, which binds root
// too. The old file must survive intact and the temporary must be gone.
TEST_F(FindDbTest, FailedWriteLeavesOldFileAndNoTemporary)
{
    FindDb db;
    ASSERT_TRUE(db.store(kKey, {entry("A", 1.0f, 0)}));
    const std::string before = readText(db.file());

    std::vector<FindDbEntry> big;
    for(int i = 0; i < 200; ++i)
        big.push_back(entry("Solver_" + std::to_string(i), 1.0f + static_cast<float>(i), 4096));

    const int rc = runInChild([&]() -> int {
        std::signal(SIGXFSZ, SIG_IGN); // write() then fails with EFBIG instead of killing us
        const rlimit limit{512, 512};
        if(::setrlimit(RLIMIT_FSIZE, &limit) != 0)
            return 10;
        return FindDb().store(kKey2, big) ? 11 : 0;
    });
    EXPECT_EQ(rc, 0) << "10: setrlimit failed, 11: store claimed success";
    EXPECT_EQ(readText(db.file()), before);
    EXPECT_EQ(listDir(dir()), (std::set<std::string>{db.file().filename().string(),
                                                      lockFile().filename().string()}));
    // Without the limit the same store works.
    EXPECT_TRUE(db.store(kKey2, big));
    EXPECT_EQ(db.load(kKey2), big);
}

TEST_F(FindDbTest, StaleTemporariesOfAKilledWriterAreRemoved)
{
    FindDb db;
    const fs::path stale = db.file().string() + ".tmp.99999.0";
    writeText(stale, "half-written");
    const fs::path unrelated = dir() / "unrelated.txt";
    writeText(unrelated, "keep me");
    ASSERT_TRUE(db.store(kKey, {entry("A", 1.0f, 0)}));
    EXPECT_FALSE(fs::exists(stale));
    EXPECT_TRUE(fs::exists(unrelated));
}

// ---------------------------------------------------------------------------------------------
// MIOPEN_DEBUG_DISABLE_FIND_DB

TEST_F(FindDbTest, DisabledFindDbNeitherLoadsNorStores)
{
    ASSERT_TRUE(FindDb().store(kKey, {entry("A", 1.0f, 0)}));
    const std::string before = readText(dbFile());

    for(const char* on : {"1", "on", "yes", "true", "enable", "enabled", "TRUE", "Yes"})
    {
        ScopedEnv env("MIOPEN_DEBUG_DISABLE_FIND_DB", on);
        FindDb db;
        EXPECT_FALSE(db.enabled()) << on;
        EXPECT_FALSE(db.load(kKey)) << on;
        EXPECT_FALSE(db.store(kKey2, {entry("B", 2.0f, 0)})) << on;
        EXPECT_FALSE(db.store(kKey, {})) << on;
    }
    EXPECT_EQ(readText(dbFile()), before);

    // A disabled find-db does not even create its directory.
    {
        const fs::path nested = root() / "never";
        ScopedEnv path("MIOPEN_USER_DB_PATH", nested.c_str());
        ScopedEnv env("MIOPEN_DEBUG_DISABLE_FIND_DB", "1");
        EXPECT_FALSE(FindDb().store(kKey, {entry("A", 1.0f, 0)}));
        EXPECT_FALSE(fs::exists(nested));
    }

    for(const char* off : {"0", "off", "no", "false", "disabled", "garbage"})
    {
        ScopedEnv env("MIOPEN_DEBUG_DISABLE_FIND_DB", off);
        FindDb db;
        EXPECT_TRUE(db.enabled()) << off;
        EXPECT_TRUE(db.load(kKey)) << off;
    }
}

} // namespace
} // namespace find_db_test
