// The Vulkan backend (issue 16): a second GPU API beside CUDA. Host code only (g++); the loader
// (libvulkan.so.1) is opened at run time by volk, so a joseki built with Vulkan still starts
// where Vulkan is absent and says why (availability()).
//
//   vk::Context ctx(device_index);                     // instance, physical device, queue
//   vk::Buffer in(ctx, bytes, vk::Memory::Device);      // device-local storage buffer
//   in.upload(host_ptr, bytes);                         // through a staging buffer
//   vk::Pipeline p(ctx, spirv, {256, 4}, 3 /*buffers*/); // specialization constants 0, 1, ...
//   double s = ctx.time([&](VkCommandBuffer cb) { p.dispatch(cb, {&in, &out}, push, groups); });
//
// A Pipeline keeps one descriptor set: bind one set of buffers per command buffer.
//
// Every Vulkan call is checked: a failure throws RunError naming the call and the VkResult.
// All handles are owned by RAII objects (move-only).
#pragma once

#include <volk.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace joseki::vk {

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" etc.
const char* result_name(VkResult r);
// Throws RunError("<call> failed: <VkResult>") unless r is VK_SUCCESS.
void check(VkResult r, const char* call);
#define JOSEKI_VK_CHECK(call) ::joseki::vk::check((call), #call)

// The Vulkan facts of one physical device, as recorded (extra["vulkan"]).
struct Facts {
  int index = 0;
  std::string name;
  std::string device_type;    // "discrete-gpu" | "integrated-gpu" | "cpu" | "virtual-gpu" | "other"
  std::string api_version;    // "1.3.230"
  std::string driver_version; // decoded per vendor (NVIDIA: 580.159.4), else "major.minor.patch"
  std::string driver_name, driver_info;  // VkPhysicalDeviceDriverProperties ("llvmpipe", "Mesa 22.3.6 ...")
  std::uint32_t vendor_id = 0, device_id = 0;
  std::uint32_t subgroup_size = 0;
  std::vector<std::string> subgroup_ops;  // "basic", "vote", "arithmetic", "ballot", ...
  bool subgroup_in_compute = false;
  bool subgroup_arithmetic = false;       // arithmetic ops supported in compute shaders
  double timestamp_period_ns = 0;
  std::uint32_t timestamp_valid_bits = 0; // of the compute queue family; 0 = no timestamps
  std::uint64_t max_shared_bytes = 0;     // maxComputeSharedMemorySize
  std::uint64_t max_storage_range = 0;    // maxStorageBufferRange: the largest buffer a shader may bind
  std::uint32_t max_workgroup_invocations = 0;
  std::uint32_t max_workgroup_count[3] = {0, 0, 0};
  std::uint64_t device_local_bytes = 0;   // the largest DEVICE_LOCAL heap
  std::uint32_t queue_family = 0;
  bool is_cpu() const { return device_type == "cpu"; }
};
nlohmann::json to_json(const Facts& f);

struct Availability {
  bool ok = false;
  std::string reason;               // why not, in one line, when !ok
  std::string loader;               // "Vulkan 1.3.239 loader" when it loaded
  std::vector<Facts> devices;       // every physical device with a compute queue
};
// Never throws: no loader, no instance, no device -> ok == false with the reason.
Availability availability();

class Context;

enum class Memory { Device, Host };  // Host: HOST_VISIBLE | HOST_COHERENT (staging, readback)

class Buffer {
 public:
  Buffer() = default;
  Buffer(Context& ctx, std::size_t bytes, Memory where);
  Buffer(Buffer&& o) noexcept { *this = std::move(o); }
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  VkBuffer handle() const { return m_buf; }
  std::size_t bytes() const { return m_bytes; }
  // Device buffers: through a staging buffer and a copy command; host buffers: memcpy.
  void upload(const void* src, std::size_t bytes, std::size_t dst_offset = 0);
  void download(void* dst, std::size_t bytes, std::size_t src_offset = 0);
  void fill(std::uint32_t word);  // vkCmdFillBuffer over the whole buffer, waited for

 private:
  void release();
  Context* m_ctx = nullptr;
  VkBuffer m_buf = VK_NULL_HANDLE;
  VkDeviceMemory m_mem = VK_NULL_HANDLE;
  void* m_map = nullptr;
  std::size_t m_bytes = 0;
};

// A compute pipeline from embedded SPIR-V: N storage buffers at bindings 0..N-1 of set 0, up to
// 32 bytes of push constants, specialization constants 0..k-1 (u32) from `spec`.
class Pipeline {
 public:
  Pipeline(Context& ctx, std::span<const std::uint32_t> spirv, const std::vector<std::uint32_t>& spec, int buffers,
           const std::string& name);
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;
  ~Pipeline();
  // Binds the buffers (descriptor set updated when they change), pushes the constants and
  // dispatches groups_x x groups_y x 1 workgroups.
  void dispatch(VkCommandBuffer cb, const std::vector<const Buffer*>& bufs, std::span<const std::uint32_t> push,
                std::uint32_t groups_x, std::uint32_t groups_y = 1);
  const std::string& name() const { return m_name; }

 private:
  void destroy();
  Context& m_ctx;
  std::string m_name;
  int m_buffers = 0;
  VkShaderModule m_module = VK_NULL_HANDLE;
  VkDescriptorSetLayout m_dsl = VK_NULL_HANDLE;
  VkPipelineLayout m_layout = VK_NULL_HANDLE;
  VkPipeline m_pipe = VK_NULL_HANDLE;
  VkDescriptorPool m_pool = VK_NULL_HANDLE;
  VkDescriptorSet m_set = VK_NULL_HANDLE;
  std::vector<VkBuffer> m_bound;
};

// Orders a transfer or compute write before later compute reads/writes and transfers.
void barrier(VkCommandBuffer cb);

using Record = std::function<void(VkCommandBuffer)>;

class Context {
 public:
  // Throws GpuUnavailable (no loader / no device) or InputError (index out of range).
  explicit Context(int device_index);
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ~Context();

  const Facts& facts() const { return m_facts; }
  VkDevice device() const { return m_dev; }
  VkPhysicalDevice physical() const { return m_phys; }
  std::uint32_t memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags want) const;

  // Records `body` into a one-time command buffer, submits it and waits.
  void run(const Record& body);
  // As run(), with timestamps around `body`: the GPU interval in seconds (timestampPeriod, the
  // valid bits masked). Throws RunError when the queue has no timestamps.
  double time(const Record& body);

 private:
  void destroy();
  VkInstance m_inst = VK_NULL_HANDLE;
  VkPhysicalDevice m_phys = VK_NULL_HANDLE;
  VkDevice m_dev = VK_NULL_HANDLE;
  VkQueue m_queue = VK_NULL_HANDLE;
  VkCommandPool m_pool = VK_NULL_HANDLE;
  VkCommandBuffer m_cb = VK_NULL_HANDLE;
  VkFence m_fence = VK_NULL_HANDLE;
  VkQueryPool m_queries = VK_NULL_HANDLE;
  Facts m_facts;
};

}  // namespace joseki::vk
